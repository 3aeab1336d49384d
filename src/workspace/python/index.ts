import type { Program, ProgramRequest } from '../runtime/program'
import { helpText, parsePythonArgs, pipText, usageText } from './argv'
import { PythonHost, type EngineWorker } from './host'

/**
 * `python` / `python3` in the offline workspace: CPython 3 compiled to WebAssembly (Pyodide, from the npm package,
 * served from our own origin under /pyodide/), in a dedicated worker the agent's worker starts on first use.
 */
let host: PythonHost | undefined

function sharedHost(): PythonHost {
  host ??= new PythonHost({
    createWorker: () => new Worker(new URL('./python.worker.ts', import.meta.url), { type: 'module', name: 'tabcode-python' }) as unknown as EngineWorker,
    indexURL: new URL('/pyodide/', globalThis.location.href).href,
  })
  return host
}

export const runPython: Program = (request) => runWith(sharedHost(), request)

/** `pip` / `pip3`: says what installing would need instead of failing obscurely. */
export const runPip: Program = async ({ argv, onStderr }) => {
  onStderr(pipText(argv[0] ?? 'pip', argv.slice(1), isOnline()))
  return { exitCode: 1 }
}

export async function runWith(python: PythonHost, request: ProgramRequest) {
  const name = request.argv[0] ?? 'python3'
  const invocation = parsePythonArgs(request.argv.slice(1))
  switch (invocation.kind) {
    case 'usage':
      request.onStderr(usageText(name, invocation.message))
      return { exitCode: 2 }
    case 'help':
      request.onStdout(helpText(name))
      return { exitCode: 0 }
    case 'pip':
      request.onStderr(pipText(`${name} -m pip`, invocation.args, isOnline()))
      return { exitCode: 1 }
    case 'version':
      return python.run({ kind: 'code', code: 'import sys; print("Python", sys.version.split()[0])', args: [] }, request)
    case 'stdin':
      // The program is what was piped in; the program's own stdin is then empty, as with `python < file`.
      return python.run({ ...invocation, source: request.stdin }, { ...request, stdin: '' })
    default:
      return python.run(invocation, request)
  }
}

function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false
}
