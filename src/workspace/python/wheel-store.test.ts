import { describe, expect, it } from 'vitest'
import { makeWheel } from './testing/make-wheel'
import { WheelStore } from './wheel-store'

const BASE = 'http://127.0.0.1:4173/python-wheels/'

function serving(routes: Record<string, () => Response>) {
  const asked: string[] = []
  const fetch = (async (url: string) => {
    asked.push(url)
    const route = routes[url]
    if (!route) return new Response('not found', { status: 404 })
    return route()
  }) as typeof globalThis.fetch
  return { fetch, asked }
}

describe('WheelStore', () => {
  const { wheel, data } = makeWheel('hello', '1.0', 'hi')
  const index = (body: unknown) => () => Response.json(body)

  it('fetches a wheel once from the app, checks its sha256, and reports a download that is not cached', async () => {
    const server = serving({ [`${BASE}index.json`]: index({ type: 'available', files: [wheel.file] }), [`${BASE}${wheel.file}`]: () => new Response(data.slice()) })
    const store = new WheelStore({ baseURL: BASE, fetch: server.fetch, isCached: async () => false })
    let progress = ''
    expect(await store.install([wheel], (text) => (progress += text))).toEqual({ type: 'installed', wheels: [wheel] })
    expect(progress).toBe("Downloading hello-1.0 (tabcode's offline set, 0.0 MB)… done\n")
    expect(store.has('Hello')).toBe(true)
    expect(store.packages()).toEqual([{ name: 'hello', file: wheel.file, data }])
    await store.remove('hello')
    await store.install([wheel], () => undefined)
    expect(server.asked.filter((url) => url.endsWith('.whl'))).toHaveLength(1)
  })

  it('refuses a wheel whose bytes are not the pinned ones', async () => {
    const server = serving({ [`${BASE}index.json`]: index({ type: 'available', files: [wheel.file] }), [`${BASE}${wheel.file}`]: () => new Response(new Uint8Array([1, 2, 3])) })
    const store = new WheelStore({ baseURL: BASE, fetch: server.fetch })
    const result = await store.install([wheel], () => undefined)
    expect(result).toEqual({ type: 'failed', message: expect.stringContaining(`${wheel.file} has sha256 `) })
    expect(store.has('hello')).toBe(false)
  })

  it('says why a build has no wheels, and retries an index it could not load', async () => {
    const store = new WheelStore({ baseURL: BASE, fetch: serving({ [`${BASE}index.json`]: index({ type: 'unavailable', reason: 'python3 was not found' }) }).fetch })
    expect(await store.install([wheel], () => undefined)).toEqual({ type: 'failed', message: 'this build of tabcode has no offline Python packages (python3 was not found)' })

    let up = false
    const flaky = (async () => {
      if (!up) throw new TypeError('Failed to fetch')
      return Response.json({ type: 'available', files: [] })
    }) as unknown as typeof fetch
    const later = new WheelStore({ baseURL: BASE, fetch: flaky })
    expect(await later.install([wheel], () => undefined)).toEqual({ type: 'failed', message: 'the offline set could not be loaded from the app (Failed to fetch)' })
    up = true
    expect(await later.install([wheel], () => undefined)).toEqual({ type: 'failed', message: `this build of tabcode does not serve ${wheel.file}` })
  })

  describe('what a page installed, a later page has', () => {
    const memoryOf = (names: string[] = []) => ({
      names,
      async load() {
        return this.names
      },
      async save(next: readonly string[]) {
        this.names = [...next]
      },
    })
    const routes = () => ({ [`${BASE}index.json`]: index({ type: 'available', files: [wheel.file] }), [`${BASE}${wheel.file}`]: () => new Response(data.slice()) })

    it('remembers an install and forgets an uninstall', async () => {
      const memory = memoryOf()
      const store = new WheelStore({ baseURL: BASE, fetch: serving(routes()).fetch, memory: () => memory, offline: [wheel] })
      await store.install([wheel], () => undefined)
      expect(memory.names).toEqual(['hello'])
      await store.remove('hello')
      expect(memory.names).toEqual([])
    })

    it('installs the remembered packages again before the first command of a new page, once', async () => {
      const memory = memoryOf(['hello', 'gone-from-this-build'])
      const server = serving(routes())
      const store = new WheelStore({ baseURL: BASE, fetch: server.fetch, isCached: async () => true, memory: () => memory, offline: [wheel] })
      let notices = ''
      await store.restore((text) => (notices += text))
      await store.restore((text) => (notices += text))
      expect(store.has('hello')).toBe(true)
      expect(store.packages()).toEqual([{ name: 'hello', file: wheel.file, data }])
      expect(server.asked.filter((url) => url.endsWith('.whl'))).toHaveLength(1)
      // From the cache: nothing to say.
      expect(notices).toBe('')
    })

    it('says when a remembered package cannot be put back, and keeps remembering it for a later page', async () => {
      const memory = memoryOf(['hello'])
      const store = new WheelStore({ baseURL: BASE, fetch: serving({}).fetch, memory: () => memory, offline: [wheel] })
      let notices = ''
      await store.restore((text) => (notices += text))
      expect(store.has('hello')).toBe(false)
      expect(notices).toContain('pip: hello, installed before, could not be installed again: the offline set could not be loaded from the app')
      expect(memory.names).toEqual(['hello'])
    })
  })
})
