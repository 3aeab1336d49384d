/**
 * The Python side of a run, loaded once into its own namespace. Each run starts from the state the interpreter
 * had after start-up: modules the project defined are forgotten (an edited module is imported afresh, as a new
 * process would), while standard-library modules stay imported, which keeps a warm run fast.
 */
export const RUNNER_SOURCE = String.raw`
import io, os, sys, runpy, traceback, importlib, importlib.util, types

sys.dont_write_bytecode = True
try:
    sys.stdout.reconfigure(line_buffering=True)
    sys.stderr.reconfigure(line_buffering=True)
except Exception:
    pass

_STDLIB = os.path.dirname(os.__file__)
_BASELINE_PATH = [entry for entry in sys.path if entry not in ('', os.getcwd())]
_BASELINE_MODULES = set(sys.modules)
_MAIN = sys.modules['__main__']


def _is_library(module):
    path = getattr(module, '__file__', None)
    return isinstance(path, str) and path.startswith(_STDLIB)


def _forget_project_modules():
    for name, module in list(sys.modules.items()):
        if name not in _BASELINE_MODULES and not _is_library(module):
            del sys.modules[name]
    importlib.invalidate_caches()


def _exit_code(error):
    code = error.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _print_traceback(error):
    tb = error.__traceback__
    # Our own frames and runpy's are not the program's: CPython's own traceback starts at the program.
    while tb is not None and (tb.tb_frame.f_code.co_filename in ('<exec>', runpy.__file__) or 'runpy' in tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb)


def _exec_as_main(source, filename):
    main = types.ModuleType('__main__')
    main.__builtins__ = __builtins__
    sys.modules['__main__'] = main
    exec(compile(source, filename, 'exec'), main.__dict__)


def run(kind, target, args, argv0, cwd, env, stdin):
    try:
        _forget_project_modules()
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode('utf-8', 'surrogateescape')), encoding='utf-8')
        first = ''
        if kind == 'script':
            first = os.path.dirname(os.path.abspath(target))
        elif kind == 'module':
            first = cwd
        sys.path[:] = [first] + ([cwd] if kind == 'script' and cwd != first else []) + _BASELINE_PATH
        if kind == 'script':
            if not os.path.exists(target):
                print(f"{argv0}: can't open file {os.path.abspath(target)!r}: [Errno 2] No such file or directory", file=sys.stderr)
                return 2
            sys.argv = [target, *args]
            runpy.run_path(target, run_name='__main__')
        elif kind == 'module':
            sys.argv = ['-m', *args]
            try:
                spec = importlib.util.find_spec(target)
            except (ImportError, ValueError):
                spec = None
            if spec is None:
                print(f'{argv0}: No module named {target}', file=sys.stderr)
                return 1
            runpy.run_module(target, run_name='__main__', alter_sys=True)
        elif kind == 'code':
            sys.argv = ['-c', *args]
            _exec_as_main(target, '<string>')
        else:
            sys.argv = ['-' if args else '', *args]
            _exec_as_main(target, '<stdin>')
        return 0
    except SystemExit as error:
        return _exit_code(error)
    except KeyboardInterrupt as error:
        _print_traceback(error)
        return 130
    except BaseException as error:
        _print_traceback(error)
        return 1
    finally:
        sys.modules['__main__'] = _MAIN
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
`
