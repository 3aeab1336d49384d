import { readFileSync } from 'node:fs'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { WARM_MESSAGE } from './warm-cache'

const SCRIPT = readFileSync(new URL('../../../../public/sw-warm.js', import.meta.url), 'utf8')

/** public/sw-warm.js in a service worker of its own, with a cache that holds `present` and a network. */
function serviceWorker(options: { present?: string[]; failOn?: string; assets: string[] }) {
  const stored = new Set(options.present ?? [])
  const opened: string[] = []
  const requested: string[] = []
  let onMessage: ((event: unknown) => void) | undefined
  const cache = {
    match: async (url: string) => (stored.has(url) ? new Response('') : undefined),
    put: async (url: string) => void stored.add(url),
  }
  runInNewContext(SCRIPT, {
    self: { addEventListener: (type: string, listener: (event: unknown) => void) => type === 'message' && (onMessage = listener) },
    caches: { open: async (name: string) => (opened.push(name), cache) },
    fetch: async (url: string) => {
      requested.push(url)
      if (url === '/asset-list.json') return new Response(JSON.stringify({ cache: 'tabcode-assets', assets: options.assets }))
      if (url === options.failOn) throw new TypeError('Failed to fetch')
      return new Response('asset')
    },
    Response,
    Promise,
    Array,
    Error,
  })
  /** Posts `data` to it; resolves with what it kept the worker alive for. */
  const post = (data: unknown) => {
    let kept: Promise<unknown> = Promise.resolve(undefined)
    onMessage?.({ data, waitUntil: (promise: Promise<unknown>) => (kept = promise) })
    return kept
  }
  return { stored, opened, requested, post }
}

describe('warming the asset cache after a first visit', () => {
  it('fetches every listed asset the cache lacks into the named cache, and only those', async () => {
    const worker = serviceWorker({ present: ['/assets/a.js'], assets: ['/assets/a.js', '/assets/b.js', '/assets/c.wasm'] })
    expect(await worker.post(WARM_MESSAGE)).toBe(2)
    expect(worker.opened).toEqual(['tabcode-assets'])
    expect(worker.requested).not.toContain('/assets/a.js')
    expect([...worker.stored].sort()).toEqual(['/assets/a.js', '/assets/b.js', '/assets/c.wasm'])
  })

  it('ends quietly at a failed fetch (offline) and keeps what it already cached', async () => {
    const worker = serviceWorker({ failOn: '/assets/b.js', assets: ['/assets/a.js', '/assets/b.js', '/assets/c.js', '/assets/d.js', '/assets/e.js'] })
    expect(await worker.post(WARM_MESSAGE)).toBe(0)
    expect(worker.stored.has('/assets/a.js')).toBe(true)
    expect(worker.stored.has('/assets/b.js')).toBe(false)
  })

  it('ignores other messages', async () => {
    const worker = serviceWorker({ assets: ['/assets/a.js'] })
    await worker.post({ type: 'SKIP_WAITING' })
    expect(worker.requested).toEqual([])
  })
})
