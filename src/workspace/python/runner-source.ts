/**
 * The Python side of a run, loaded once into its own namespace before the interpreter's clean state is taken
 * (clean-state.ts): every run starts from that state, and ends as CPython ends a process, with the atexit handlers
 * run after the program (and after its traceback) and the standard streams flushed.
 */
export const RUNNER_SOURCE = String.raw`
import atexit, io, os, sys, runpy, traceback, importlib, importlib.util, types

# Pyodide's bridges to JavaScript keep some of their state on the JavaScript side, where putting the memory back
# does not reach: imported once here, before the clean state is taken, they are part of it and never imported again
# (importing pyodide.http anew after a restore was seen to end the interpreter with "hiwire_incref on invalid
# reference"). The worker imports this after it closed the ways out, so pyodide.http binds the closed fetch.
import js, pyodide.ffi, pyodide.http, pyodide.webloop

sys.dont_write_bytecode = True
try:
    sys.stdout.reconfigure(line_buffering=True)
    sys.stderr.reconfigure(line_buffering=True)
except Exception:
    pass

_BASELINE_PATH = [entry for entry in sys.path if entry not in ('', os.getcwd())]
_MAIN = sys.modules['__main__']


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


def _run_exit_handlers():
    # CPython reports a failing handler ("Exception ignored in atexit callback") and goes on with the next one; an
    # interrupt (Stop) while they run ends them, and the run has already its exit code.
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass


def _exec_as_main(source, filename):
    main = types.ModuleType('__main__')
    main.__builtins__ = __builtins__
    sys.modules['__main__'] = main
    exec(compile(source, filename, 'exec'), main.__dict__)


def run(kind, target, args, argv0, cwd, env, stdin):
    try:
        # The project's files changed since the clean state was taken; import must not trust a listing it cached.
        importlib.invalidate_caches()
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
        _run_exit_handlers()
        sys.modules['__main__'] = _MAIN
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()
            except Exception:
                pass
`
