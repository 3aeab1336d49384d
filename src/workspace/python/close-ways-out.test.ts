import { loadPyodide } from 'pyodide'
import { beforeAll, describe, expect, it } from 'vitest'
import { ClosedToPythonError, closeWaysOut, NAVIGATOR_WAYS_OUT, SCOPE_WAYS_OUT } from './close-ways-out'
import { PythonEngine } from './engine'

/** A worker-like global scope: some ways out on the object, some on its prototype (as getters), a navigator. */
function fakeScope() {
  const reached: string[] = []
  const prototype = {}
  Object.defineProperty(prototype, 'indexedDB', {
    get: () => ({ open: (name: string) => void reached.push(`indexedDB.open ${name}`) }),
    configurable: true,
    enumerable: true,
  })
  const navigatorPrototype = {}
  Object.defineProperty(navigatorPrototype, 'storage', { get: () => ({ getDirectory: () => void reached.push('storage') }), configurable: true })
  Object.defineProperty(navigatorPrototype, 'userAgent', { get: () => 'a test', configurable: true })
  const scope = Object.create(prototype) as Record<string, unknown>
  Object.assign(scope, {
    fetch: (url: string) => void reached.push(`fetch ${url}`),
    XMLHttpRequest: class {
      open(_method: string, url: string) {
        reached.push(`xhr ${url}`)
      }
    },
    setTimeout,
    navigator: Object.create(navigatorPrototype),
  })
  return { scope, prototype, reached }
}

describe('closeWaysOut', () => {
  it('makes every way out throw, saying why, and leaves the rest alone', () => {
    const { scope, reached } = fakeScope()
    closeWaysOut(scope)
    const scopeOf = scope as unknown as { fetch(url: string): void; XMLHttpRequest: new () => unknown; indexedDB: unknown; BroadcastChannel: new (name: string) => unknown }
    expect(() => scopeOf.fetch('http://example.com/?s=secret')).toThrow(new ClosedToPythonError('fetch', 'network'))
    expect(() => scopeOf.fetch('x')).toThrow('fetch is switched off for Python in tabcode: programs here cannot reach the network')
    expect(() => new scopeOf.XMLHttpRequest()).toThrow('XMLHttpRequest is switched off for Python in tabcode')
    expect(() => scopeOf.indexedDB).toThrow('indexedDB is switched off for Python in tabcode: programs here cannot reach the browser’s storage')
    // Absent ones are defined too, so each gives the same answer.
    expect(() => new scopeOf.BroadcastChannel('tabcode')).toThrow('BroadcastChannel is switched off for Python in tabcode: programs here cannot reach the rest of the app')
    const navigator = scope.navigator as { storage: unknown; locks: unknown; userAgent: string }
    expect(() => navigator.storage).toThrow('storage is switched off')
    expect(() => navigator.locks).toThrow('locks is switched off')
    expect(navigator.userAgent).toBe('a test')
    expect(scope.setTimeout).toBe(setTimeout)
    expect(reached).toEqual([])
  })

  it('leaves the original nowhere: not on a prototype, and nothing can put it back', () => {
    const { scope, prototype, reached } = fakeScope()
    closeWaysOut(scope)
    const fromPrototype = Object.getOwnPropertyDescriptor(prototype, 'indexedDB')!
    expect(() => fromPrototype.get!.call(scope)).toThrow(ClosedToPythonError)
    const navigatorPrototype = Object.getPrototypeOf(scope.navigator) as object
    expect(() => Object.getOwnPropertyDescriptor(navigatorPrototype, 'storage')!.get!.call(scope.navigator)).toThrow(ClosedToPythonError)
    expect(() => Object.defineProperty(scope, 'fetch', { value: () => 'back' })).toThrow(TypeError)
    expect(() => Object.defineProperty(prototype, 'indexedDB', { value: 'back' })).toThrow(TypeError)
    expect(reached).toEqual([])
  })

  it('refuses to go on when a way out cannot be switched off', () => {
    const scope = {}
    Object.defineProperty(scope, 'fetch', { value: () => undefined, configurable: false, writable: false })
    expect(() => closeWaysOut(scope)).toThrow('Python cannot start: fetch could not be switched off')
  })

  it('lists the network, storage and the app’s channels', () => {
    for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'Worker', 'FontFace', 'fonts']) expect(SCOPE_WAYS_OUT[name]).toBe('network')
    for (const name of ['indexedDB', 'caches']) expect(SCOPE_WAYS_OUT[name]).toBe('storage')
    for (const name of ['BroadcastChannel', 'postMessage']) expect(SCOPE_WAYS_OUT[name]).toBe('app')
    expect(NAVIGATOR_WAYS_OUT).toMatchObject({ storage: 'storage', locks: 'app', serviceWorker: 'app', sendBeacon: 'network' })
  })
})

describe('Python after closeWaysOut (Pyodide in Node, its `js` module on a scope of its own)', () => {
  let engine: PythonEngine
  const reached: string[] = []
  beforeAll(async () => {
    const scope: Record<string, unknown> = {
      // What pyodide.http imports beside fetch.
      AbortController,
      AbortSignal,
      Object,
      Request,
      Promise,
      setTimeout,
      clearTimeout,
      fetch: (url: string) => {
        reached.push(`fetch ${url}`)
        return Promise.resolve(new Response('reached'))
      },
      XMLHttpRequest: class {
        open(_method: string, url: string) {
          reached.push(`xhr ${url}`)
        }
        send() {}
      },
      indexedDB: { open: (name: string) => void reached.push(`indexedDB.open ${name}`) },
    }
    const pyodide = await loadPyodide({ jsglobals: scope })
    closeWaysOut(scope)
    engine = new PythonEngine(pyodide)
  }, 60_000)

  const run = (code: string) => {
    let stderr = ''
    const result = engine.execute(
      { job: { kind: 'code', code, args: [] }, argv0: 'python3', cwd: '/workspace', env: {}, stdin: '', upload: { reset: false, root: '/workspace', remove: [], mkdir: [], write: [] }, packages: [] },
      { stdout: () => undefined, stderr: (text) => (stderr += text) },
    )
    return { exitCode: result.exitCode, stderr }
  }

  it.each([
    ['js.fetch', "import js; js.fetch('http://127.0.0.1:9/?s=secret')", 'fetch'],
    ['pyfetch', "from pyodide.http import pyfetch; pyfetch('http://127.0.0.1:9/?s=secret').send(None)", 'fetch'],
    ['open_url', "from pyodide.http import open_url; open_url('http://127.0.0.1:9/?s=secret')", 'XMLHttpRequest'],
    ['XMLHttpRequest', "from js import XMLHttpRequest; XMLHttpRequest.new().open('GET', 'http://127.0.0.1:9/')", 'XMLHttpRequest'],
    ['indexedDB', "import js; js.indexedDB.open('tabcode')", 'indexedDB'],
    ['Worker', "from js import Worker; Worker.new('data:text/javascript,')", 'Worker'],
  ])('%s fails with a message that says why', (_name, code, feature) => {
    const result = run(code)
    expect(result.exitCode).toBe(1)
    // pyfetch raises its own AbortError, with the same message.
    expect(result.stderr).toMatch(new RegExp(`(ClosedToPythonError|AbortError): ${feature} is switched off for Python in tabcode`))
    expect(reached).toEqual([])
  })
})
