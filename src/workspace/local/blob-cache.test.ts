import { describe, expect, it } from 'vitest'
import { BlobCache } from './blob-cache'

const bytes = (length: number) => new Uint8Array(length)

describe('BlobCache', () => {
  it('drops the least recently read contents once over capacity', () => {
    const cache = new BlobCache(10)
    cache.set('a', bytes(4))
    cache.set('b', bytes(4))
    cache.get('a')
    cache.set('c', bytes(4))
    expect(cache.get('a')).toBeDefined()
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('c')).toBeDefined()
  })

  it('does not keep contents larger than the whole cache', () => {
    const cache = new BlobCache(10)
    cache.set('big', bytes(11))
    expect(cache.get('big')).toBeUndefined()
  })
})
