import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { posix } from 'node:path'
import { inspect } from 'node:util'
import { createRequire } from 'node:module'
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { runInEngine, type EngineEntry } from './engine'
import { MemoryFs } from './memory-fs'
import { stripTypes } from './strip-types'

let quickjs: QuickJSWASMModule
beforeAll(async () => {
  // Vitest resolves the browser build, which would fetch the wasm; in Node it comes from the package's file.
  const wasm = readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))
  quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) }))
})

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const ROOT = '/workspace'

async function node(
  files: Record<string, string>,
  entry: EngineEntry | string,
  options: { args?: string[]; stdin?: string; shouldStop?: () => boolean; fs?: MemoryFs } = {},
) {
  const fs = options.fs ?? new MemoryFs(Object.entries(files).map(([path, text]) => ({ path: `${ROOT}/${path}`, content: encoder.encode(text) })), [ROOT])
  let stdout = ''
  let stderr = ''
  const result = await runInEngine({
    quickjs,
    fs,
    root: ROOT,
    cwd: ROOT,
    env: { HOME: '/home/user', GREETING: 'hello' },
    stdin: options.stdin ?? '',
    entry: typeof entry === 'string' ? { kind: 'file', path: `${ROOT}/${entry}` } : entry,
    args: options.args ?? [],
    write: (fd, text) => (fd === 1 ? (stdout += text) : (stderr += text)),
    shouldStop: options.shouldStop ?? (() => false),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    stripTypes,
  })
  const read = (path: string) => decoder.decode(fs.read(`${ROOT}/${path}`))
  return { ...result, stdout, stderr, fs, read }
}

const evaluate = (code: string, print = false): EngineEntry => ({ kind: 'source', code, name: '[eval]', print, module: undefined })

describe('the offline node', () => {
  it('requires project files with module.exports, exports, JSON, index.js and a cache', async () => {
    const out = await node(
      {
        'main.js': [
          "const { add } = require('./lib/math')",
          "const again = require('./lib/math.js')",
          "const config = require('./config.json')",
          "const util = require('./util')",
          "console.log(add(2, 3), config.name, util.twice(4), again === require('./lib/math'), require('./lib/math').loads)",
        ].join('\n'),
        'lib/math.js': 'exports.loads = (globalThis.loads = (globalThis.loads || 0) + 1)\nexports.add = (a, b) => a + b',
        'config.json': '{"name": "demo"}',
        'util/index.js': 'module.exports = { twice: (n) => n * 2 }',
      },
      'main.js',
    )
    expect(out.stderr).toBe('')
    expect(out.stdout).toBe('5 demo 8 true 1\n')
    expect(out.exitCode).toBe(0)
  })

  it('runs ES modules that import each other, a built-in and a CommonJS file', async () => {
    const out = await node(
      {
        'app.mjs': "import { greet } from './greet.mjs'\nimport path from 'node:path'\nimport { join } from 'path'\nimport legacy from './legacy.cjs'\nconsole.log(greet('esm'), path.basename('/a/b.txt'), join('a', 'b'), legacy.value)\nawait Promise.resolve()\nconsole.log('after await')",
        'greet.mjs': "import { fileURLToPath } from 'node:url'\nexport const greet = (who) => `hi ${who} from ${fileURLToPath(import.meta.url)}`",
        'legacy.cjs': 'module.exports = { value: 42 }',
      },
      'app.mjs',
    )
    expect(out.stderr).toBe('')
    expect(out.stdout).toBe('hi esm from /workspace/greet.mjs b.txt a/b 42\nafter await\n')
  })

  it('runs TypeScript with its types stripped, importing .ts files by their .js names', async () => {
    const out = await node(
      {
        'main.ts': "import { area, type Shape } from './shape.js'\nconst s: Shape = { w: 2, h: 3 }\nconsole.log(area(s) as number)",
        'shape.ts': 'export interface Shape { w: number; h: number }\nexport function area(s: Shape): number { return s.w * s.h }',
      },
      'main.ts',
    )
    expect(out.stderr).toBe('')
    expect(out.stdout).toBe('6\n')
    const broken = await node({ 'bad.ts': 'const x: = 1' }, 'bad.ts')
    expect(broken.exitCode).toBe(1)
    expect(broken.stderr).toMatch(/^\/workspace\/bad\.ts: .*\(1:/)
  })

  it('reads and writes the project files synchronously, with Node error codes', async () => {
    const out = await node(
      {
        'data/in.txt': 'one\ntwo\n',
        'main.js': [
          "const fs = require('fs'); const path = require('path')",
          "const text = fs.readFileSync(path.join(__dirname, 'data', 'in.txt'), 'utf8')",
          "fs.mkdirSync('out/deep', { recursive: true })",
          "fs.writeFileSync('out/deep/count.txt', String(text.split('\\n').length))",
          "fs.appendFileSync('out/deep/count.txt', '!')",
          "console.log(fs.existsSync('out/deep/count.txt'), fs.readdirSync('out'), fs.statSync('data').isDirectory(), fs.readFileSync('data/in.txt').toString().length)",
          "try { fs.readFileSync('missing.txt') } catch (e) { console.log(e.code, e.message) }",
          "fs.unlinkSync('data/in.txt')",
        ].join('\n'),
      },
      'main.js',
    )
    expect(out.stderr).toBe('')
    expect(out.stdout).toBe("true [ 'deep' ] true 8\nENOENT ENOENT: no such file or directory, open '/workspace/missing.txt'\n")
    expect(out.read('out/deep/count.txt')).toBe('3!')
    const changes = out.fs.changes(ROOT)
    expect(changes.writes.map((w) => w.path)).toEqual(['/workspace/out/deep/count.txt'])
    expect(changes.removals).toEqual(['/workspace/data/in.txt'])
    expect(changes.directories).toEqual(['/workspace/out', '/workspace/out/deep'])
  })

  it("answers path and inspect as Node's own do", async () => {
    const paths: [string, string[]][] = [
      ['join', ['a', '../b', './c/', 'd']], ['join', ['/a/', '', 'b']], ['join', ['']], ['resolve', ['x', '../y']], ['resolve', ['/a', 'b', '/c', 'd']],
      ['dirname', ['/a/b/c.txt']], ['dirname', ['a']], ['dirname', ['/']], ['basename', ['/a/b.tar.gz', '.gz']], ['basename', ['/a/b/']],
      ['extname', ['x.tar.gz']], ['extname', ['.bashrc']], ['extname', ['a.']], ['relative', ['/a/b/c', '/a/d']], ['relative', ['/a', '/a']],
      ['normalize', ['/a//b/../c/.']], ['isAbsolute', ['./x']],
    ]
    const values = ['{ a: 1, b: [1, 2, { c: 3 }], s: "x" }', '[]', '{}', 'new Map([["k", { v: 1 }]])', 'null', '[undefined, -0, 1n]', '"quoted \'here\'"', '{ "needs-quote": true }']
    const code = [
      "const path = require('path'), util = require('util')",
      `for (const [fn, args] of ${JSON.stringify(paths)}) console.log(JSON.stringify(path[fn](...args)))`,
      ...values.map((value) => `console.log(util.inspect(${value}))`),
    ].join('\n')
    const out = await node({}, evaluate(code))
    const expected = [
      // resolve starts from the script's cwd, /workspace here.
      ...paths.map(([fn, args]) => JSON.stringify((posix[fn as keyof typeof posix] as (...a: string[]) => unknown)(...(fn === 'resolve' ? ['/workspace', ...args] : args)))),
      ...values.map((value) => inspect(new Function(`return (${value})`)())),
    ]
    expect(out.stderr).toBe('')
    expect(out.stdout.trim().split('\n')).toEqual(expected)
  })

  it('hashes with sha256, sha1 and md5 as Node does, and gives random values', async () => {
    const inputs = ['', 'abc', 'x'.repeat(55), 'y'.repeat(64), 'héllo wörld '.repeat(40)]
    const code = [
      "const crypto = require('crypto')",
      `for (const text of ${JSON.stringify(inputs)}) for (const algorithm of ['sha256', 'sha1', 'md5']) console.log(crypto.createHash(algorithm).update(text).digest('hex'))`,
      'console.log(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(globalThis.crypto.randomUUID()), crypto.randomBytes(8).length)',
    ].join('\n')
    const out = await node({}, evaluate(code))
    const expected = inputs.flatMap((text) => ['sha256', 'sha1', 'md5'].map((algorithm) => createHash(algorithm).update(text).digest('hex')))
    expect(out.stdout.trim().split('\n')).toEqual([...expected, 'true 8'])
  })

  it('gives process.argv, env, cwd, stdout.write and stdin', async () => {
    const out = await node(
      { 'args.js': "process.stdout.write(JSON.stringify([process.argv.slice(1), process.env.GREETING, process.cwd()]) + '\\n')\nconsole.log(require('fs').readFileSync(0, 'utf8').trim())" },
      'args.js',
      { args: ['--flag', 'x'], stdin: 'piped in\n' },
    )
    expect(out.stdout).toBe('[["/workspace/args.js","--flag","x"],"hello","/workspace"]\npiped in\n')
  })

  it('reads piped lines with readline, by event, question and async iteration', async () => {
    const files = {
      'events.js': "const rl = require('readline').createInterface({ input: process.stdin })\nconst seen = []\nrl.on('line', (l) => seen.push(l.toUpperCase()))\nrl.on('close', () => console.log(seen.join(',')))",
      'ask.mjs': "import readline from 'node:readline/promises'\nconst rl = readline.createInterface({ input: process.stdin, output: process.stdout })\nconst name = await rl.question('name? ')\nconsole.log(`hi ${name}`)\nrl.close()",
      'iterate.mjs': "import { createInterface } from 'readline'\nlet total = 0\nfor await (const line of createInterface({ input: process.stdin })) total += Number(line)\nconsole.log(total)",
    }
    expect((await node(files, 'events.js', { stdin: 'a\nb\n' })).stdout).toBe('A,B\n')
    expect((await node(files, 'ask.mjs', { stdin: 'Ada\n' })).stdout).toBe('name? hi Ada\n')
    expect((await node(files, 'iterate.mjs', { stdin: '1\n2\n3\n' })).stdout).toBe('6\n')
  })

  it('ends at process.exit with its code, and nothing after it runs', async () => {
    const out = await node({ 'exit.js': "console.log('before')\ntry { process.exit(3) } catch {}\nconsole.log('after')\nrequire('fs').writeFileSync('late.txt', 'x')" }, 'exit.js')
    expect(out.exitCode).toBe(3)
    expect(out.stdout).toBe('before\n')
    expect(out.fs.exists(`${ROOT}/late.txt`)).toBe(false)
  })

  it('answers process.exitCode, timers and promises in order', async () => {
    const out = await node(
      { 't.js': "setTimeout(() => console.log('timeout'), 5)\nPromise.resolve().then(() => console.log('micro'))\nconsole.log('sync')\nprocess.exitCode = 4" },
      't.js',
    )
    expect(out.stdout).toBe('sync\nmicro\ntimeout\n')
    expect(out.exitCode).toBe(4)
    const exit = await node({}, evaluate("process.on('exit', (code) => { console.log('exit', code); process.exitCode = 5 })\nconsole.log('end')"))
    expect(exit).toMatchObject({ stdout: 'end\nexit 0\n', exitCode: 5 })
    const exited = await node({}, evaluate("process.on('exit', (code) => console.log('bye', code))\nprocess.exit(2)"))
    expect(exited).toMatchObject({ stdout: 'bye 2\n', exitCode: 2 })
  })

  it('reports an uncaught error with its line and stack on stderr and exits 1', async () => {
    const out = await node({ 'boom.js': "function explode() {\n  throw new TypeError('bad input')\n}\nexplode()" }, 'boom.js')
    expect(out.exitCode).toBe(1)
    expect(out.stderr).toContain("/workspace/boom.js:2\n  throw new TypeError('bad input')\n")
    expect(out.stderr).toContain('TypeError: bad input\n    at explode (/workspace/boom.js:2')
    expect(out.stderr).not.toContain('node:internal')
    const syntax = await node({ 'main.js': "require('./broken')", 'broken.js': 'const a = ;' }, 'main.js')
    expect(syntax.exitCode).toBe(1)
    expect(syntax.stderr).toMatch(/^\/workspace\/broken\.js:1\nconst a = ;\n {10}\^\n\nSyntaxError: /)
  })

  it('says plainly that npm packages, native addons and network modules need WebContainer', async () => {
    const out = await node({ 'pkg.js': "for (const id of ['lodash', './addon.node', 'http']) { try { require(id) } catch (e) { console.log(e.message) } }" }, 'pkg.js')
    const [pkg, addon, http] = out.stdout.trim().split('\n')
    const imported = await node({ 'app.mjs': "import express from 'express'" }, 'app.mjs')
    expect(imported.exitCode).toBe(1)
    expect(imported.stderr).toMatch(/Cannot find module 'express' \(imported from \/workspace\/app\.mjs\).*need WebContainer/)
    expect(pkg).toMatch(/Cannot find module 'lodash'.*npm packages \(node_modules\) and native addons need WebContainer/)
    expect(addon).toMatch(/native addon .*need WebContainer/)
    expect(http).toMatch(/'http' is not available in the offline node/)
  })

  it('has no fetch, XMLHttpRequest, indexedDB or importScripts of the host', async () => {
    const out = await node(
      {},
      evaluate(
        "for (const f of [() => indexedDB.open('tabcode'), () => new XMLHttpRequest(), () => importScripts('x.js')]) { try { f(); console.log('reached') } catch (e) { console.log(e.name) } }\nfetch('https://example.com').catch((e) => console.log(e.message))",
      ),
    )
    expect(out.stdout).toBe('ReferenceError\nReferenceError\nReferenceError\nfetch is not available in the offline node: it has no network (WebContainer does)\n')
  })

  it('has no other way out either: WebSocket says so, the rest is not there, and import() of a URL fails', async () => {
    const fetched = vi.fn(async () => new Response('export default 1'))
    vi.stubGlobal('fetch', fetched)
    const absent = ['EventSource', 'Worker', 'BroadcastChannel', 'navigator', 'caches', 'indexedDB', 'RTCPeerConnection']
    const out = await node(
      {},
      evaluate(
        `try { new WebSocket('ws://127.0.0.1:9/') } catch (e) { console.log(e.message) }\n` +
          `for (const name of ${JSON.stringify(absent)}) console.log(name, typeof globalThis[name])\n` +
          "import('http://127.0.0.1:9/x.js?s=secret').then(() => console.log('imported'), () => console.log('import failed'))",
      ),
    )
    vi.unstubAllGlobals()
    expect(out.stdout).toBe(
      'WebSocket is not available in the offline node: it has no network (WebContainer does)\n' + absent.map((name) => `${name} undefined\n`).join('') + 'import failed\n',
    )
    expect(fetched).not.toHaveBeenCalled()
  })

  it('evaluates -e with require and prints -p results', async () => {
    const e = await node({ 'a.json': '[1,2]' }, evaluate("console.log(require('./a.json').length, typeof module, __filename)"))
    expect(e.stdout).toBe('2 object [eval]\n')
    const p = await node({}, evaluate('({ a: 1, b: [1, 2], c: "x" })', true))
    expect(p.stdout).toBe("{ a: 1, b: [ 1, 2 ], c: 'x' }\n")
  })

  it('stops a runaway loop when asked', async () => {
    let polls = 0
    const stopped = await node({}, evaluate('while (true) {}'), { shouldStop: () => ++polls > 3 })
    expect(stopped).toMatchObject({ exitCode: 130, stopped: true })
  })

  it('refuses a runaway recursion with a short stack', async () => {
    const deep = await node({}, evaluate('function f() { return f() + 1 }\nf()'))
    expect(deep.exitCode).toBe(1)
    expect(deep.stderr).toMatch(/InternalError: stack overflow/)
    expect(deep.stderr.split('\n').filter((line) => line.startsWith('    at')).length).toBe(10)
  })

  it('ends a script that takes more memory than its limit', async () => {
    const big = await node({}, evaluate('const bytes = new Uint8Array(512 * 1024 * 1024); console.log(bytes.length)'))
    expect(big.exitCode).toBe(1)
    expect(big.stderr).toMatch(/out of memory/)
    // The engine still runs scripts after all that.
    expect((await node({}, evaluate('console.log(1 + 1)'))).stdout).toBe('2\n')
  })

  it('reports a rejection after an await, in a timer or of a plain value, as Node does, and exits 1', async () => {
    const awaited = await node({ 'a.js': "async function main() {\n  await null\n  throw new Error('after await')\n}\nmain()\nconsole.log('started')" }, 'a.js')
    expect(awaited.exitCode).toBe(1)
    expect(awaited.stdout).toBe('started\n')
    expect(awaited.stderr).toMatch(/^\/workspace\/a\.js:3\n  throw new Error\('after await'\)\n +\^\n\nError: after await\n {4}at main \(\/workspace\/a\.js:3/)
    const timer = await node({ 't.mjs': "setTimeout(async () => { throw new Error('in timer') }, 1)" }, 't.mjs')
    expect(timer.exitCode).toBe(1)
    expect(timer.stderr).toContain('Error: in timer')
    const plain = await node({}, evaluate("Promise.reject('plain')"))
    expect(plain.exitCode).toBe(1)
    expect(plain.stderr).toContain(
      'UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "\'plain\'".',
    )
    expect(plain.stderr).toContain("code: 'ERR_UNHANDLED_REJECTION'")
    const chained = await node({ 'c.js': "const p = Promise.reject(new Error('chained'))\np.then(() => console.log('never'))" }, 'c.js')
    expect(chained).toMatchObject({ exitCode: 1 })
    expect(chained.stderr).toContain('Error: chained')
  })

  it('lets a handled rejection pass, runs exit listeners with 1 after a failure, and honours unhandledRejection listeners', async () => {
    const handled = await node(
      { 'h.js': "async function main() { await null; throw new Error('caught') }\nmain().catch((e) => console.log('handled', e.message))\nconst p = main()\np.then(undefined, () => console.log('later'))" },
      'h.js',
    )
    expect(handled).toMatchObject({ exitCode: 0, stdout: 'handled caught\nlater\n', stderr: '' })
    // Every call statement carries the hook; a constructor's super() call and an IIFE still run as written.
    const shapes = await node({ 's.js': "class A extends Object { constructor() { super()\n this.v = 1 } }\n;(async () => console.log(new A().v))()\n;[1].forEach((n) => console.log(n))" }, 's.js')
    expect(shapes).toMatchObject({ exitCode: 0, stdout: '1\n1\n', stderr: '' })
    const exit = await node({ 'e.js': "process.on('exit', (code) => console.log('exit', code))\nasync function main() { await null; throw new TypeError('x') }\nmain()" }, 'e.js')
    expect(exit).toMatchObject({ exitCode: 1, stdout: 'exit 1\n' })
    expect(exit.stderr).toContain('TypeError: x')
    const listened = await node(
      { 'l.js': "process.on('unhandledRejection', (reason) => console.log('seen', reason.message))\nPromise.reject(new Error('r'))\nprocess.on('uncaughtException', (e) => console.log('caught', e.message))\nsetTimeout(() => { throw new Error('t') })" },
      'l.js',
    )
    expect(listened).toMatchObject({ exitCode: 0, stdout: 'seen r\ncaught t\n' })
  })

  it('does not lose an error thrown in queueMicrotask, process.nextTick or an async event listener', async () => {
    for (const code of [
      "[1, 2].forEach(async (n) => { await null; if (n === 2) throw new Error('micro') })",
      "new Map([[1, 1]]).forEach(async () => { throw new Error('micro') })",
      "new Promise((resolve, reject) => reject(new Error('micro')))",
      "const later = async () => { throw new Error('micro') }; true && later()",
      "queueMicrotask(() => { throw new Error('micro') })",
      "process.nextTick(() => { throw new Error('micro') })",
      "const E = require('events'); const e = new E(); e.on('go', async () => { await null; throw new Error('micro') }); e.emit('go')",
    ]) {
      const out = await node({}, evaluate(code))
      expect(out.exitCode, code).toBe(1)
      expect(out.stderr, code).toContain('Error: micro')
    }
  })

  it('prints what a script writes before an await in a loop that uses performance, as on a host', async () => {
    const bench = await node(
      { 'bench.js': "async function run() {\n  for (let i = 0; i < 20; i++) {\n    const t = performance.now()\n    await new Promise((r) => setTimeout(r, 0))\n    console.log('line', i, performance.now() >= t)\n  }\n}\nrun()" },
      'bench.js',
    )
    expect(bench.exitCode).toBe(0)
    expect(bench.stdout.trim().split('\n')).toHaveLength(20)
    expect(bench.stdout).toContain('line 19 true')
  })

  // The scripts and what node v20 printed for them on a host.
  it("gives structuredClone, AbortController, TextEncoder, performance, URL, queueMicrotask and timers/promises as Node's", async () => {
    const out = await node({ 'globals.js': "const c = structuredClone({ d: new Date(0), m: new Map([[1, new Set([2])]]), u: new Uint8Array([1, 2]) })\nconsole.log(c.d instanceof Date, c.m.get(1).has(2), c.u[1])\ntry { structuredClone(() => 1) } catch (e) { console.log(e.name) }\nconst ac = new AbortController()\nac.signal.addEventListener('abort', () => console.log('aborted', ac.signal.reason.name))\nac.abort()\nconsole.log(new TextDecoder().decode(new TextEncoder().encode('h\u00e9llo')), new TextEncoder().encode('\u00e9').length)\nconsole.log(typeof performance.now(), performance.now() >= 0, typeof performance.timeOrigin)\nperformance.mark('a'); performance.mark('b'); console.log(performance.measure('ab', 'a', 'b').name)\nconst u = new URL('https://example.com:8080/a/b?x=1&y=2#h')\nconsole.log(u.hostname, u.port, u.pathname, u.search, u.searchParams && u.searchParams.get('y'))\nqueueMicrotask(() => console.log('micro'))\nconst { setTimeout: wait } = require('node:timers/promises')\nwait(1, 'v').then((v) => console.log('waited', v))\nconst { EventEmitter, once } = require('node:events')\nconst e = new EventEmitter(); once(e, 'x').then(([v]) => console.log('once', v)); e.emit('x', 7)\nconsole.log(require('node:util').inspect({ a: [1, { b: { c: { d: 1 } } }], s: 'x' }))\nconsole.log(require('node:util').inspect(new Error('e').message), require('perf_hooks').performance === performance)\n" }, 'globals.js')
    expect(out).toMatchObject({ exitCode: 0, stderr: '' })
    expect(out.stdout).toBe("true true 2\nDataCloneError\naborted AbortError\nh\u00e9llo 2\nnumber true number\nab\nexample.com 8080 /a/b ?x=1&y=2 2\n{ a: [ 1, { b: [Object] } ], s: 'x' }\n'e' true\nmicro\nonce 7\nwaited v\n")
  })

  it("answers the whole node:assert API, strict and loose, with Node's messages", async () => {
    const out = await node({ 'asserts.js': "const assert = require('node:assert')\nconst strict = require('node:assert/strict')\nconst tries = {\n  deep: () => assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] }),\n  strictEq: () => assert.strictEqual('a', 'b'),\n  ifError: () => assert.ifError(new Error('e')),\n  ifErrorNull: () => assert.ifError(null),\n  throwsMissing: () => assert.throws(() => {}),\n  throwsClass: () => assert.throws(() => { throw new TypeError('t') }, TypeError),\n  throwsWrongClass: () => assert.throws(() => { throw new Error('t') }, TypeError),\n  throwsObject: () => assert.throws(() => { throw new TypeError('bad thing') }, { name: 'TypeError', message: /bad/ }),\n  throwsRegExp: () => assert.throws(() => { throw new Error('bad thing') }, /thing/),\n  looseDeep: () => assert.deepEqual({ a: 1 }, { a: '1' }),\n  strictDeepMode: () => strict.deepEqual({ a: 1 }, { a: '1' }),\n  strictEqualMode: () => strict.equal(1, '1'),\n  maps: () => assert.deepStrictEqual(new Map([[1, { x: 1 }]]), new Map([[1, { x: 1 }]])),\n  sets: () => assert.deepStrictEqual(new Set([1, 2]), new Set([2, 1])),\n  protos: () => assert.deepStrictEqual(Object.create(null), {}),\n  match: () => assert.match('abc', /x/),\n  doesNotMatch: () => assert.doesNotMatch('abc', /b/),\n  doesNotThrow: () => assert.doesNotThrow(() => { throw new Error('oops') }),\n  fail: () => assert.fail('boom'),\n  ok: () => assert.ok(true),\n  nan: () => assert.strictEqual(NaN, NaN),\n}\nfor (const [name, f] of Object.entries(tries)) {\n  try { f(); console.log(name, 'passed') } catch (e) { console.log(name, e.name, e.code, JSON.stringify(e.message)) }\n}\n;(async () => {\n  for (const [name, p] of [['rejects', assert.rejects(Promise.resolve())], ['rejectsOk', assert.rejects(Promise.reject(new TypeError('x')), TypeError)], ['doesNotReject', assert.doesNotReject(Promise.reject(new Error('r')))]]) {\n    try { await p; console.log(name, 'passed') } catch (e) { console.log(name, e.name, JSON.stringify(e.message)) }\n  }\n  console.log(assert.strict === strict, typeof strict.strict)\n})()\n" }, 'asserts.js')
    expect(out).toMatchObject({ exitCode: 0, stderr: '' })
    expect(out.stdout).toBe("deep AssertionError ERR_ASSERTION \"Expected values to be strictly deep-equal:\\n+ actual - expected\\n\\n  {\\n    a: 1,\\n    b: [\\n      1,\\n+     2\\n-     3\\n    ]\\n  }\"\nstrictEq AssertionError ERR_ASSERTION \"Expected values to be strictly equal:\\n\\n'a' !== 'b'\\n\"\nifError AssertionError ERR_ASSERTION \"ifError got unwanted exception: e\"\nifErrorNull passed\nthrowsMissing AssertionError ERR_ASSERTION \"Missing expected exception.\"\nthrowsClass passed\nthrowsWrongClass AssertionError ERR_ASSERTION \"The error is expected to be an instance of \\\"TypeError\\\". Received \\\"Error\\\"\\n\\nError message:\\n\\nt\"\nthrowsObject passed\nthrowsRegExp passed\nlooseDeep passed\nstrictDeepMode AssertionError ERR_ASSERTION \"Expected values to be strictly deep-equal:\\n+ actual - expected\\n\\n  {\\n+   a: 1\\n-   a: '1'\\n  }\"\nstrictEqualMode AssertionError ERR_ASSERTION \"Expected values to be strictly equal:\\n\\n1 !== '1'\\n\"\nmaps passed\nsets passed\nprotos AssertionError ERR_ASSERTION \"Expected values to be strictly deep-equal:\\n+ actual - expected\\n\\n+ [Object: null prototype] {}\\n- {}\"\nmatch AssertionError ERR_ASSERTION \"The input did not match the regular expression /x/. Input:\\n\\n'abc'\\n\"\ndoesNotMatch AssertionError ERR_ASSERTION \"The input was expected to not match the regular expression /b/. Input:\\n\\n'abc'\\n\"\ndoesNotThrow AssertionError ERR_ASSERTION \"Got unwanted exception.\\nActual message: \\\"oops\\\"\"\nfail AssertionError ERR_ASSERTION \"boom\"\nok passed\nnan passed\nrejects AssertionError \"Missing expected rejection.\"\nrejectsOk passed\ndoesNotReject AssertionError \"Got unwanted rejection.\\nActual message: \\\"r\\\"\"\ntrue function\n")
  })

  it('prints an uncaught assertion as Node does, with its code and fields', async () => {
    const out = await node({ 'a.js': "require('assert').strictEqual(1, 2)" }, 'a.js')
    expect(out.exitCode).toBe(1)
    expect(out.stderr).toContain("AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n1 !== 2\n")
    expect(out.stderr).toContain("{\n  generatedMessage: true,\n  code: 'ERR_ASSERTION',\n  actual: 1,\n  expected: 2,\n  operator: 'strictEqual'\n}")
  })
})
