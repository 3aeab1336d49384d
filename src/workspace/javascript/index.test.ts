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

  it("runs node --test over the project's test files and reports TAP as Node's reporter does, exit 1 on a failure", async () => {
    const files = {
      'package.json': '{ "name": "calc", "scripts": { "test": "node --test" } }',
      'src/add.js': 'module.exports = (a, b) => a + b',
      'test/add.test.js': [
        "const test = require('node:test')",
        "const assert = require('node:assert/strict')",
        "const add = require('../src/add')",
        "test('adds', () => { assert.equal(add(1, 2), 3) })",
        "test('adds wrongly', () => { assert.equal(add(1, 1), 3) })",
      ].join('\n'),
      'lib.test.mjs': [
        "import { describe, it, before, beforeEach, afterEach, after } from 'node:test'",
        "import assert from 'node:assert'",
        'const seen = []',
        "describe('hooks', () => {",
        "  before(() => seen.push('before'))",
        "  beforeEach(() => seen.push('each'))",
        "  afterEach(() => seen.push('after each'))",
        "  after(() => console.log(seen.join(',')))",
        "  it('waits', async () => { await new Promise((r) => setTimeout(r, 1)) })",
        "  it('has subtests', async (t) => { await t.test('inner', () => {}) })",
        "  it.skip('is skipped', () => { throw new Error('ran') })",
        "  it('is todo', { todo: 'later' }, () => { throw new Error('not yet') })",
        "  it('calls back', (t, done) => { setTimeout(done, 1) })",
        '})',
      ].join('\n'),
      'node_modules/dep/x.test.js': "throw new Error('never run')",
    }
    const out = await node(['--test'], files)
    expect(out.exitCode).toBe(1)
    expect(out.stdout).toMatch(/^TAP version 13\n# Subtest: hooks\n {4}# Subtest: waits\n {4}ok 1 - waits\n/)
    expect(out.stdout).toContain('        # Subtest: inner\n        ok 1 - inner\n')
    expect(out.stdout).toContain('    ok 3 - is skipped # SKIP\n')
    expect(out.stdout).toContain("    not ok 4 - is todo # TODO later\n      ---\n      duration_ms: ")
    // What a test prints is a TAP comment; the hooks of a suite run around its tests' subtests too, as in Node.
    expect(out.stdout).toContain('\n# before,each,after each,each,each,after each,after each,each,after each,each,after each\n')
    expect(out.stdout).toContain("ok 1 - hooks\n  ---\n  duration_ms: ")
    expect(out.stdout).toContain('ok 2 - adds\n')
    expect(out.stdout).toMatch(/not ok 3 - adds wrongly\n  ---\n  duration_ms: [\d.]+\n  location: '\/workspace\/test\/add\.test\.js:5:\d+'\n  failureType: 'testCodeFailure'\n  error: \|-\n    Expected values to be strictly equal:\n    \n    2 !== 3\n    \n  code: 'ERR_ASSERTION'\n  name: 'AssertionError'\n  expected: 3\n  actual: 2\n  operator: 'strictEqual'\n/)
    expect(out.stdout).toMatch(/\n1\.\.3\n# tests 8\n# suites 1\n# pass 5\n# fail 1\n# cancelled 0\n# skipped 1\n# todo 1\n# duration_ms [\d.]+\n$/)
    const passing = await node(['--test', 'lib.test.mjs'], files)
    expect(passing.exitCode).toBe(0)
    expect(passing.stdout).toContain('# tests 6\n# suites 1\n# pass 4\n# fail 0\n')
    expect(await node(['--test', 'missing'], files)).toMatchObject({ exitCode: 1, stderr: "Could not find '/workspace/missing'\n" })
  })

  it('runs a test file directly, with a failing async test exiting 1, and an empty run reporting 0 tests', async () => {
    const out = await node(['t.js'], { 't.js': "const { test } = require('node:test')\ntest('async', async () => { await null; throw new Error('late') })" })
    expect(out.exitCode).toBe(1)
    expect(out.stdout).toContain("not ok 1 - async\n  ---\n  duration_ms: ")
    expect(out.stdout).toContain("  error: 'late'\n  code: 'ERR_TEST_FAILURE'\n")
    expect(out.stdout).toContain('# fail 1\n')
    const empty = await node(['--test'], { 'src/a.js': '' })
    expect(empty).toMatchObject({ exitCode: 0 })
    expect(empty.stdout).toMatch(/^TAP version 13\n1\.\.0\n# tests 0\n/)
    expect((await node(['-e', "require('test')"])).stderr).toMatch(/Cannot find module 'test'/)
  })

  it('finds the main module as Node does, and a package importing itself through its exports, with --conditions', async () => {
    const files = {
      'test.js': "console.log('test.js ran')",
      'app/package.json': '{ "main": "start.js" }',
      'app/start.js': "console.log('main ran')",
      'package.json': JSON.stringify({
        name: '@me/pkg',
        type: 'module',
        exports: { '.': { custom: './src/custom.js', import: './src/index.js', default: './src/index.cjs' }, './utils/*': './src/utils/*.js' },
      }),
      'src/index.js': "export const where = 'import'",
      'src/custom.js': "export const where = 'custom'",
      'src/index.cjs': "exports.where = 'require'",
      'src/utils/text.js': "export const shout = (s) => s.toUpperCase()",
      'src/main.js': "import { where } from '@me/pkg'\nimport { shout } from '@me/pkg/utils/text'\nimport { createRequire } from 'node:module'\nconsole.log(where, shout('hi'))",
      'src/req.cjs': "console.log(require('@me/pkg').where)\ntry { require('@me/pkg/hidden') } catch (e) { console.log(e.code) }",
    }
    expect((await node(['test'], files)).stdout).toBe('test.js ran\n')
    expect((await node(['app'], files)).stdout).toBe('main ran\n')
    const imported = await node(['src/main.js'], { ...files, 'src/main.js': files['src/main.js'].replace("import { createRequire } from 'node:module'\n", '') })
    expect(imported).toMatchObject({ exitCode: 0, stdout: 'import HI\n' })
    expect((await node(['--conditions=custom', 'src/main.js'], { ...files, 'src/main.js': files['src/main.js'].replace("import { createRequire } from 'node:module'\n", '') })).stdout).toBe('custom HI\n')
    expect((await node(['src/req.cjs'], files)).stdout).toBe('require\nERR_PACKAGE_PATH_NOT_EXPORTED\n')
  })
})
