/// <reference lib="webworker" />
import { loadPyodide, type PyodideAPI } from 'pyodide'
import { closeWaysOut } from './close-ways-out'
import { PythonEngine } from './engine'
import type { EngineMessage, HostMessage } from './protocol'
import { policyProblem, type PolicyProbes } from './worker-policy'

/**
 * The dedicated Pyodide worker, started by the agent's worker on the first `python` and kept warm. A run blocks
 * this worker until it ends; Stop reaches the interpreter through the shared interrupt buffer, or ends the worker.
 */
declare const self: DedicatedWorkerGlobalScope

/** The runtime's two big downloads and their sizes in pyodide 314.0.8, for the percentage when a server sends no length. */
const DOWNLOADS: Record<string, number> = { 'pyodide.asm.wasm': 9_597_892, 'python_stdlib.zip': 2_545_550 }

let engine: Promise<PythonEngine> | undefined

// Kept before `closeWaysOut` switches the global one off: the engine alone speaks to the host.
const postToHost = self.postMessage.bind(self)
const post = (message: EngineMessage, transfer: Transferable[] = []) => postToHost(message, transfer)

self.onmessage = (event: MessageEvent<HostMessage>) => {
  const message = event.data
  if (message.type === 'init') {
    engine = start(message.indexURL, message.interrupt)
    engine.then(
      (ready) => post({ type: 'ready', version: ready.version }),
      (error: unknown) => post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    )
    return
  }
  void engine?.then((ready) => {
    const { id, request } = message
    const output = {
      stdout: (text: string) => post({ type: 'output', id, stream: 'stdout', text }),
      stderr: (text: string) => post({ type: 'output', id, stream: 'stderr', text }),
    }
    // A timer the last program left (a callback handed to JavaScript) would call into a state that is gone.
    clearProgramTimers()
    try {
      const result = ready.execute(request, output)
      post({ type: 'done', id, ...result }, result.download.write.map((file) => file.data.buffer as ArrayBuffer))
    } catch (error) {
      // A failure outside the program (the file upload, or the interpreter itself failing) ends the run, and this
      // worker with it: the host starts a new one for the next command rather than trust this one's state.
      post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
    }
  })
}

const programTimers = new Set<number>()

/** Keeps the timers set from now on, so the next run can clear what a program left behind. */
function trackTimers() {
  const setTimer = self.setTimeout.bind(self)
  const setRepeating = self.setInterval.bind(self)
  self.setTimeout = ((handler: TimerHandler, timeout?: number, ...rest: unknown[]) => {
    const id = setTimer(handler, timeout, ...rest)
    programTimers.add(id)
    return id
  }) as typeof self.setTimeout
  self.setInterval = ((handler: TimerHandler, timeout?: number, ...rest: unknown[]) => {
    const id = setRepeating(handler, timeout, ...rest)
    programTimers.add(id)
    return id
  }) as typeof self.setInterval
}

function clearProgramTimers() {
  for (const id of programTimers) {
    self.clearTimeout(id)
    self.clearInterval(id)
  }
  programTimers.clear()
}

async function start(indexURL: string, interrupt: SharedArrayBuffer | undefined): Promise<PythonEngine> {
  const problem = policyProblem(await probePolicy(), __PYTHON_WORKER_POLICY__)
  if (problem) throw new Error(problem)
  if (!(await cached(`${indexURL}pyodide.asm.wasm`))) countDownloads()
  const pyodide = await loadPyodide({ indexURL })
  if (interrupt) pyodide.setInterruptBuffer(new Int32Array(interrupt))
  lockDown(pyodide)
  trackTimers()
  return new PythonEngine(pyodide)
}

/**
 * Closes the worker's ways out (network, storage, the app's channels) now that Pyodide has fetched its files, before
 * any program runs. `pyodide.http` binds `fetch` when it is first imported: any copy imported before now is dropped,
 * so the next import binds the closed one.
 */
function lockDown(pyodide: PyodideAPI) {
  closeWaysOut(self)
  pyodide.runPython("import sys\nfor name in [n for n in sys.modules if n == 'pyodide.http' or n.startswith('pyodide.http.')]:\n    del sys.modules[name]")
}

/** Tries what the worker's policy must refuse (worker-policy.ts): the browser answers both itself, so nothing is reached. */
async function probePolicy(): Promise<PolicyProbes> {
  const module = 'data:text/javascript,'
  const [scripts, connections] = await Promise.all([
    import(/* @vite-ignore */ module).then(
      () => 'loaded' as const,
      () => 'refused' as const,
    ),
    fetch('data:,').then(
      () => 'made' as const,
      () => 'refused' as const,
    ),
  ])
  return { scripts, connections }
}

async function cached(url: string): Promise<boolean> {
  try {
    return (await caches.match(new URL(url, self.location.href).href)) !== undefined
  } catch {
    return false
  }
}

/** Wraps `fetch` so the runtime's big files report their bytes as they stream in (only on their first download). */
function countDownloads() {
  const original = self.fetch.bind(self)
  const loaded = new Map<string, number>()
  const totals = new Map(Object.entries(DOWNLOADS))
  const total = () => [...totals.values()].reduce((sum, size) => sum + size, 0)
  const report = () => post({ type: 'progress', loaded: [...loaded.values()].reduce((sum, size) => sum + size, 0), total: total() })
  self.fetch = async (input, init) => {
    const response = await original(input, init)
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const name = Object.keys(DOWNLOADS).find((file) => url.endsWith(`/${file}`))
    if (!name || !response.body) return response
    const length = Number(response.headers.get('Content-Length'))
    if (length > 0) totals.set(name, length)
    loaded.set(name, 0)
    report()
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          loaded.set(name, (loaded.get(name) ?? 0) + chunk.byteLength)
          report()
          controller.enqueue(chunk)
        },
      }),
    )
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
