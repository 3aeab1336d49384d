/**
 * What a `python` command line asks for, read the way CPython reads its own: options up to the first of `-c cmd`,
 * `-m mod`, `-` or a script path, and everything after that belongs to the program (`sys.argv[1:]`).
 */
export type PythonInvocation =
  /** `python file.py args`: `sys.argv` is `[file.py, ...args]`. */
  | { kind: 'script'; path: string; args: string[] }
  /** `python -c 'code' args`: `sys.argv` is `['-c', ...args]`. */
  | { kind: 'code'; code: string; args: string[] }
  /** `python -m mod args`: runpy puts the module's path in `sys.argv[0]`. */
  | { kind: 'module'; module: string; args: string[] }
  /** `python` or `python - args`: the program is standard input. */
  | { kind: 'stdin'; args: string[] }
  /** `python -m pip …`: tabcode's own pip (pip.ts), which installs from the offline set. */
  | { kind: 'pip'; args: string[] }
  | { kind: 'version' }
  | { kind: 'help' }
  /** A usage error; CPython exits 2. */
  | { kind: 'usage'; message: string }

/** Options that take no argument; they change nothing that matters here (bytecode is never written anyway). */
const FLAGS = new Set(['b', 'B', 'd', 'E', 'i', 'I', 'O', 'P', 'q', 's', 'S', 'u', 'v', 'x', 'R'])
/** Options whose argument is attached (`-Wignore`) or the next word (`-W ignore`). */
const WITH_ARGUMENT = new Set(['W', 'X'])

export function parsePythonArgs(args: readonly string[]): PythonInvocation {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '-') return { kind: 'stdin', args: args.slice(index + 1) }
    if (arg === '--') return script(args, index + 1)
    if (arg === '--version') return { kind: 'version' }
    if (arg === '--help' || arg === '--help-all') return { kind: 'help' }
    if (arg.startsWith('--')) {
      if (arg === '--check-hash-based-pycs') index++
      else return { kind: 'usage', message: `unknown option ${arg}` }
      continue
    }
    if (!arg.startsWith('-')) return script(args, index)
    // A cluster of one-letter options (`-uB`), which may end in one that takes the rest or the next word.
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at]!
      if (FLAGS.has(letter)) continue
      if (letter === 'V') return { kind: 'version' }
      if (letter === 'h' || letter === '?') return { kind: 'help' }
      if (letter === 'c' || letter === 'm' || WITH_ARGUMENT.has(letter)) {
        const attached = arg.slice(at + 1)
        const value = attached !== '' ? attached : args[++index]
        if (value === undefined) return { kind: 'usage', message: `Argument expected for the -${letter} option` }
        const rest = args.slice(index + 1)
        if (letter === 'c') return { kind: 'code', code: value, args: rest }
        if (letter === 'm') return value === 'pip' || value === 'pip3' ? { kind: 'pip', args: rest } : { kind: 'module', module: value, args: rest }
        break
      }
      return { kind: 'usage', message: `Unknown option: -${letter}` }
    }
  }
  return { kind: 'stdin', args: [] }
}

function script(args: readonly string[], index: number): PythonInvocation {
  const path = args[index]
  if (path === undefined) return { kind: 'stdin', args: [] }
  return { kind: 'script', path, args: args.slice(index + 1) }
}

/** CPython's answer to a usage error, on stderr with exit status 2. */
export function usageText(name: string, message: string): string {
  return `${message}\nusage: ${name} [option] ... [-c cmd | -m mod | file | -] [arg] ...\nTry \`${name} -h' for more information.\n`
}

export function helpText(name: string): string {
  return [
    `usage: ${name} [option] ... [-c cmd | -m mod | file | -] [arg] ...`,
    'Runs Python (Pyodide, in WebAssembly) in the browser, over the project files.',
    '-c cmd : program passed in as string',
    '-m mod : run library module as a script (unittest, a module of the project, …)',
    'file   : program read from script file',
    '-      : program read from stdin (default when no file is given)',
    '-V     : print the Python version number and exit',
    'pip installs from tabcode’s offline set of pure-Python wheels (pytest and its dependencies); nothing else can be installed.',
    '',
  ].join('\n')
}
