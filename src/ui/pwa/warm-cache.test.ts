import { describe, expect, it } from 'vitest'
import { warmAssets } from './warm-cache'

function fakeCache(present: string[], failOn?: string) {
  const stored = new Set(present)
  return {
    stored,
    cache: {
      match: async (url: RequestInfo | URL) => (stored.has(String(url)) ? new Response('') : undefined),
      add: async (url: RequestInfo | URL) => {
        if (String(url) === failOn) throw new TypeError('Failed to fetch')
        stored.add(String(url))
      },
    },
  }
}

describe('warming the asset cache after a first visit', () => {
  it('fetches every listed asset the cache lacks into the named cache, and only those', async () => {
    const { stored, cache } = fakeCache(['/assets/a.js'])
    const opened: string[] = []
    const fetched = await warmAssets({
      list: async () => ({ cache: 'tabcode-assets', assets: ['/assets/a.js', '/assets/b.js', '/assets/c.wasm'] }),
      open: async (name) => (opened.push(name), cache),
    })
    expect(opened).toEqual(['tabcode-assets'])
    expect(fetched).toBe(2)
    expect([...stored].sort()).toEqual(['/assets/a.js', '/assets/b.js', '/assets/c.wasm'])
  })

  it('stops at a failed fetch (offline) and keeps what it already cached', async () => {
    const { stored, cache } = fakeCache([], '/assets/b.js')
    const warming = warmAssets({
      list: async () => ({ cache: 'tabcode-assets', assets: ['/assets/a.js', '/assets/b.js', '/assets/c.js'] }),
      open: async () => cache,
      parallel: 1,
    })
    await expect(warming).rejects.toThrow('Failed to fetch')
    expect([...stored]).toEqual(['/assets/a.js'])
  })
})
