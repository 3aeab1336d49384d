import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import { createEngineHost } from './host'
import { createNodeRuntime } from './index'
import type { EngineChannel, EngineReply, EngineRunMessage } from './protocol'
import { stripTypes } from './strip-types'

let quickjs: QuickJSWASMModule
beforeAll(async () => {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))
  quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) }))
})

/** The engine on this thread, as the worker runs it; counts how many were started and terminated. */
function inProcessEngines() {
  const counts = { started: 0, terminated: 0 }
  const engines = { counts, start: (): EngineChannel => start(), onRun: (_message: EngineRunMessage) => {} }
  const start = (): EngineChannel => {
    counts.started++
    let listener: (reply: EngineReply) => void = () => {}
    const handle = createEngineHost({
      loadQuickJS: async () => quickjs,
      loadStripTypes: async () => stripTypes,
      reply: (message) => listener(message),
    })
    return {
      post: (message) => {
        if (message.type === 'run') engines.onRun(message)
        void handle(message)
      },
      onReply: (next) => (listener = next),
      terminate: () => counts.terminated++,
    }
  }
  return engines
}

async function node(argv: string[], files: Record<string, string> = {}, options: { stdin?: string; signal?: AbortSignal; runtime?: ReturnType<typeof createNodeRuntime>; onStdout?: (text: string) => void } = {}) {
  const workspace = createMemoryWorkspace(files)
  const runtime = options.runtime ?? createNodeRuntime(inProcessEngines().start)
  let stdout = ''
  let stderr = ''
  const { exitCode } = await runtime.run({
    argv: ['node', ...argv],
    cwd: '/workspace',
    env: {},
    stdin: options.stdin ?? '',
    files: workspace,
    signal: options.signal ?? new AbortController().signal,
    onStdout: (text) => {
      stdout += text
      options.onStdout?.(text)
    },
    onStderr: (text) => (stderr += text),
  })
  return { exitCode, stdout, stderr, workspace }
}

describe('runNode', () => {
  it('runs a file with its arguments and writes what it changed back to the project', async () => {
    const out = await node(['src/main.js', 'a', 'b'], {
      'src/main.js': "const fs = require('fs')\nfs.writeFileSync('out/args.txt', process.argv.slice(2).join(','))\nfs.unlinkSync('old.txt')\nconsole.log('ok', require.main === module, fs.readdirSync('.'), fs.existsSync('.git/HEAD'))",
      'old.txt': 'x',
      'out/.keep': '',
      '.git/HEAD': 'ref: refs/heads/main',
    })
    // .git is there (so is node_modules in a real project), without its files: the script never needs them.
    expect(out).toMatchObject({ exitCode: 0, stdout: "ok true [ '.git', 'out', 'src' ] false\n", stderr: '' })
    expect(await out.workspace.readText('/workspace/out/args.txt')).toBe('a,b')
    expect(await out.workspace.stat('/workspace/old.txt')).toBeUndefined()
  })

  it('answers -e, -p, --version, a script on stdin and a .ts file', async () => {
    expect((await node(['-e', 'console.log(6 * 7)'])).stdout).toBe('42\n')
    expect((await node(['-p', '[1, 2].map((n) => n * 2)'])).stdout).toBe('[ 2, 4 ]\n')
    expect((await node(['--version'])).stdout).toMatch(/^v\d+\.\d+\.\d+\n$/)
    expect((await node([], {}, { stdin: "console.log('from stdin')" })).stdout).toBe('from stdin\n')
    expect((await node(['-'], {}, { stdin: 'console.log(1)' })).stdout).toBe('1\n')
    expect((await node(['app.ts'], { 'app.ts': 'const n: number = 3\nconsole.log(n)' })).stdout).toBe('3\n')
  })

  it('says what is missing: a script, an option, a module', async () => {
    expect(await node(['nope.js'])).toMatchObject({ exitCode: 1, stderr: "node: Cannot find module '/workspace/nope.js'\n" })
    expect(await node(['--frobnicate', 'x.js'])).toMatchObject({ exitCode: 9, stderr: 'node: bad option: --frobnicate\n' })
    const pkg = await node(['-e', "require('express')"])
    expect(pkg.exitCode).toBe(1)
    expect(pkg.stderr).toMatch(/Cannot find module 'express'.*need WebContainer/)
  })

  it('sends an engine only the files that changed, and it sees every change', async () => {
    const engines = inProcessEngines()
    const runtime = createNodeRuntime(engines.start)
    const workspace = createMemoryWorkspace({ 'a.txt': 'one', 'b.txt': 'two' })
    const read = "const fs = require('fs'); console.log(fs.readdirSync('.').filter((n) => n.endsWith('.txt')).map((n) => n + '=' + fs.readFileSync(n, 'utf8')).join(' '))"
    const sent: string[][] = []
    const run = async () => {
      let stdout = ''
      await runtime.run({
        argv: ['node', '-e', read], cwd: '/workspace', env: {}, stdin: '', files: workspace, signal: new AbortController().signal,
        onStdout: (text) => (stdout += text), onStderr: (text) => (stdout += text),
      })
      return stdout
    }
    engines.onRun = (message) => sent.push(message.files.map((file) => file.path).sort())
    expect(await run()).toBe('a.txt=one b.txt=two\n')
    await workspace.writeFile('/workspace/b.txt', 'changed')
    await workspace.writeFile('/workspace/c.txt', 'new')
    expect(await run()).toBe('a.txt=one b.txt=changed c.txt=new\n')
    await workspace.remove('/workspace/a.txt')
    expect(await run()).toBe('b.txt=changed c.txt=new\n')
    expect(sent).toEqual([['/workspace/a.txt', '/workspace/b.txt'], ['/workspace/b.txt', '/workspace/c.txt'], []])
    expect(engines.counts.started).toBe(1)
  })

  it('reuses an engine that ended cleanly and terminates a stopped one', async () => {
    const engines = inProcessEngines()
    const runtime = createNodeRuntime(engines.start)
    await node(['-e', '1'], {}, { runtime })
    await node(['-e', '2'], {}, { runtime })
    expect(engines.counts).toEqual({ started: 1, terminated: 0 })
    const controller = new AbortController()
    const running = node(['-e', "console.log('started'); setInterval(() => {}, 5)"], {}, {
      runtime,
      signal: controller.signal,
      onStdout: () => controller.abort(),
    })
    expect((await running).exitCode).toBe(130)
    expect(engines.counts.terminated).toBe(1)
    await node(['-e', '3'], {}, { runtime })
    expect(engines.counts.started).toBe(2)
  })
})
