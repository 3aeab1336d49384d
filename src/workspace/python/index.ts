import type { Program, ProgramRequest } from '../runtime/program'
import { helpText, parsePythonArgs, usageText } from './argv'
import { PythonHost, type EngineWorker } from './host'
import { packageMemory } from './package-memory'
import { ensureInstalled, runPipCommand } from './pip'
import { WheelStore } from './wheel-store'

/**
 * `python` / `python3` in the offline workspace: CPython 3 compiled to WebAssembly (Pyodide, from the npm package,
 * served from our own origin under /pyodide/), in a dedicated worker the agent's worker starts on first use.
 */
let host: PythonHost | undefined
let store: WheelStore | undefined

/** The packages installed with `pip` (tabcode's offline set, served from our own origin under /python-wheels/). */
function sharedStore(): WheelStore {
  store ??= new WheelStore({ baseURL: new URL('/python-wheels/', globalThis.location.href).href, isCached, memory: packageMemory })
  return store
}

function sharedHost(): PythonHost {
  const wheels = sharedStore()
  host ??= new PythonHost({
    createWorker: () => new Worker(new URL('./python.worker.ts', import.meta.url), { type: 'module', name: 'tabcode-python' }) as unknown as EngineWorker,
    indexURL: new URL('/pyodide/', globalThis.location.href).href,
    packages: () => wheels.packages(),
  })
  return host
}

export const runPython: Program = (request) => runWith(sharedHost(), sharedStore(), request)

/** `pip` / `pip3`: installs from the offline set, and says what it cannot install and why. */
export const runPip: Program = (request) => runPipCommand(sharedStore(), request.argv[0] ?? 'pip', request.argv.slice(1), request)

/** `pytest`: `python -m pytest`, pytest being installed from the offline set on first use. */
export const runPytest: Program = (request) => runWith(sharedHost(), sharedStore(), { ...request, argv: ['python3', '-m', 'pytest', ...request.argv.slice(1)] }, request.argv[0] ?? 'pytest')

export async function runWith(python: PythonHost, wheels: WheelStore, request: ProgramRequest, displayName?: string) {
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
      return runPipCommand(wheels, `${name} -m pip`, invocation.args, request)
  }
  // What an earlier page installed is there before the program runs, as on a machine whose packages stay installed.
  await wheels.restore(request.onNotice ?? request.onStderr)
  switch (invocation.kind) {
    case 'version':
      return python.run({ kind: 'code', code: 'import sys; print("Python", sys.version.split()[0])', args: [] }, request)
    case 'stdin':
      // The program is what was piped in; the program's own stdin is then empty, as with `python < file`.
      return python.run({ ...invocation, source: request.stdin }, { ...request, stdin: '' })
    case 'module':
      if (invocation.module === 'pytest') {
        const problem = await ensureInstalled(wheels, 'pytest', request)
        if (problem) {
          request.onStderr(`${displayName ?? `${name}: No module named pytest`}: ${problem}\n`)
          return { exitCode: 1 }
        }
      }
      return python.run(invocation, { ...request, argv: [displayName ?? name, ...request.argv.slice(1)] })
    default:
      return python.run(invocation, request)
  }
}

async function isCached(url: string): Promise<boolean> {
  try {
    return (await caches.match(url)) !== undefined
  } catch {
    return false
  }
}
