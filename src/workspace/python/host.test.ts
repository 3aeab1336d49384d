import { loadPyodide } from 'pyodide'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import type { ProgramFiles, ProgramRequest } from '../runtime/program'
import type { RuntimeDownload, Workspace } from '../workspace'
import { PythonEngine } from './engine'
import { PythonHost, type EngineWorker } from './host'
import { runWith } from './index'
import { WheelStore } from './wheel-store'
import type { EngineMessage, HostMessage } from './protocol'

let engine: PythonEngine
beforeAll(async () => {
  engine = new PythonEngine(await loadPyodide())
}, 60_000)

/** The worker's message loop, in-process over the real engine; `onRun` may hold a run back (a program that never ends). */
function inProcessWorker(options: { onRun?: () => boolean; before?: EngineMessage[] } = {}) {
  const worker: EngineWorker & { terminated: boolean } = {
    onmessage: null,
    onerror: null,
    terminated: false,
    terminate() {
      worker.terminated = true
    },
    postMessage(message: HostMessage) {
      queueMicrotask(() => {
        const emit = (data: EngineMessage) => worker.terminated || worker.onmessage?.({ data })
        if (message.type === 'init') {
          for (const data of options.before ?? []) emit(data)
          return emit({ type: 'ready', version: engine.version })
        }
        if (options.onRun && !options.onRun()) return
        const { id } = message
        const result = engine.execute(message.request, {
          stdout: (text) => emit({ type: 'output', id, stream: 'stdout', text }),
          stderr: (text) => emit({ type: 'output', id, stream: 'stderr', text }),
        })
        emit({ type: 'done', id, ...result })
      })
    },
  }
  return worker
}

function python(host: PythonHost, files: Workspace, argv: string[], extra: Partial<ProgramRequest> = {}) {
  let stdout = ''
  let stderr = ''
  const request: ProgramRequest = {
    argv,
    cwd: '/workspace',
    env: {},
    stdin: '',
    files,
    signal: new AbortController().signal,
    onStdout: (text) => (stdout += text),
    onStderr: (text) => (stderr += text),
    ...extra,
  }
  return runWith(host, new WheelStore({ baseURL: 'http://127.0.0.1/python-wheels/' }), request).then((result) => ({ ...result, stdout, stderr }))
}

describe('PythonHost', () => {
  it('shows Python the project, writes what it changed back, and re-sends only changed files on a warm run', async () => {
    const workers: EngineWorker[] = []
    const host = new PythonHost({ indexURL: '/pyodide/', createWorker: () => (workers.push(inProcessWorker()), workers.at(-1)!) })
    const files = createMemoryWorkspace({ 'data/in.txt': 'three\n', 'old.txt': 'gone soon', 'node_modules/x/index.js': 'skipped' })
    await files.stat('/workspace/data/in.txt')
    const code = [
      'import os',
      'print(open("data/in.txt").read().strip(), os.path.exists("node_modules"))',
      'open("data/out.txt", "w").write("written by python")',
      'os.remove("old.txt")',
    ].join('\n')
    const first = await python(host, files, ['python3', '-c', code])
    expect(first).toMatchObject({ exitCode: 0, stdout: 'three False\n' })
    expect(await files.readText('/workspace/data/out.txt')).toBe('written by python')
    expect(await files.stat('/workspace/old.txt')).toBeUndefined()

    await files.writeFile('/workspace/data/in.txt', 'four\n')
    const reads = vi.spyOn(files as ProgramFiles, 'readFile')
    const second = await python(host, files, ['python', '-c', 'print(open("data/in.txt").read().strip(), open("data/out.txt").read())'])
    expect(second).toMatchObject({ exitCode: 0, stdout: 'four written by python\n' })
    expect(reads.mock.calls.map(([path]) => path)).toEqual(['/workspace/data/in.txt'])
    expect(workers).toHaveLength(1)
  })

  it('another project replaces the files Python sees', async () => {
    const host = new PythonHost({ indexURL: '/pyodide/', createWorker: () => inProcessWorker() })
    const one = createMemoryWorkspace({ 'a.txt': 'a' })
    const two = createMemoryWorkspace({ 'b.txt': 'b' })
    await python(host, one, ['python3', '-c', 'pass'])
    const result = await python(host, two, ['python3', '-c', 'import os; print(sorted(os.listdir(".")))'])
    expect(result.stdout).toBe("['b.txt']\n")
  })

  it('a program that ignores the interrupt is ended by terminating its worker; the next run starts a new one', async () => {
    let hang = true
    const workers: (EngineWorker & { terminated: boolean })[] = []
    const host = new PythonHost({
      indexURL: '/pyodide/',
      stopGrace: 20,
      createWorker: () => (workers.push(inProcessWorker({ onRun: () => !hang })), workers.at(-1)!),
    })
    const files = createMemoryWorkspace()
    const stop = new AbortController()
    const running = python(host, files, ['python3', '-c', 'while True: pass'], { signal: stop.signal })
    await vi.waitFor(() => expect(workers).toHaveLength(1))
    stop.abort()
    expect((await running).exitCode).toBe(130)
    expect(workers[0]!.terminated).toBe(true)
    hang = false
    expect(await python(host, files, ['python3', '-c', 'print("again")'])).toMatchObject({ exitCode: 0, stdout: 'again\n' })
    expect(workers).toHaveLength(2)
  })

  it('reports the first download as one growing notice line for the user, outside the program’s output', async () => {
    const before: EngineMessage[] = [0, 3, 6, 12].map((mb) => ({ type: 'progress', loaded: mb * 1_000_000, total: 12_000_000 }))
    const host = new PythonHost({ indexURL: '/pyodide/', createWorker: () => inProcessWorker({ before }) })
    let notice = ''
    const result = await python(host, createMemoryWorkspace(), ['python3', '-c', 'print(1)'], { onNotice: (text) => (notice += text) })
    expect(notice).toBe('Loading Python (first use, 12 MB)… 0% 20% 40% done\n')
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('1\n')
  })

  it('reports the first download as numbers for the card’s bar: the first at once, then at most every 100 ms, and the end', async () => {
    const before: EngineMessage[] = [0, 3, 6, 12].map((mb) => ({ type: 'progress', loaded: mb * 1_000_000, total: 12_000_000 }))
    const host = new PythonHost({ indexURL: '/pyodide/', createWorker: () => inProcessWorker({ before }) })
    const downloads: RuntimeDownload[] = []
    await python(host, createMemoryWorkspace(), ['python3', '-c', 'print(1)'], { onDownload: (download) => downloads.push(download) })
    // The messages come within one task here: the middle ones fall inside the first one’s 100 ms, and the end is sent at once.
    expect(downloads).toEqual([
      { what: 'Python', loaded: 0, total: 12_000_000 },
      { what: 'Python', loaded: 12_000_000, total: 12_000_000 },
    ])
  })

  it("hands `python -m pip` to tabcode's pip, and answers usage errors as CPython does", async () => {
    const host = new PythonHost({ indexURL: '/pyodide/', createWorker: () => inProcessWorker() })
    const pip = await python(host, createMemoryWorkspace(), ['python3', '-m', 'pip', 'install', 'requests'])
    expect(pip.exitCode).toBe(1)
    expect(pip.stderr).toContain("ERROR: requests is not in tabcode's offline set")
    expect(pip.stderr).toContain('needs the network')
    const usage = await python(host, createMemoryWorkspace(), ['python3', '-c'])
    expect(usage).toMatchObject({ exitCode: 2 })
    expect(usage.stderr).toContain('Argument expected for the -c option')
    const version = await python(host, createMemoryWorkspace(), ['python3', '--version'])
    expect(version.stdout).toMatch(/^Python 3\.\d+\.\d+\n$/)
  })

  it('replaces the worker after a program that used the bridge to JavaScript, and keeps it after pure Python', async () => {
    const workers: EngineWorker[] = []
    const host = new PythonHost({ indexURL: '/pyodide/', createWorker: () => (workers.push(inProcessWorker()), workers.at(-1)!) })
    const files = createMemoryWorkspace()
    expect(await python(host, files, ['python3', '-c', 'print(1)'])).toMatchObject({ exitCode: 0, stdout: '1\n' })
    expect(workers).toHaveLength(1)
    const bridged = await python(host, files, ['python3', '-c', "import js\nprint(js.Object.keys(js.JSON.parse('{\"a\": 1}')).length)"])
    expect(bridged).toMatchObject({ exitCode: 0, stdout: '1\n' })
    // Started at once, so it loads while nothing waits for it.
    expect(workers).toHaveLength(2)
    expect((workers[0] as EngineWorker & { terminated: boolean }).terminated).toBe(true)
  })
})
