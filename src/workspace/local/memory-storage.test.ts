import { describe, expect, it } from 'vitest'
import { createMemoryStorage } from './memory-storage'

const data = (text: string) => new TextEncoder().encode(text)
const file = (path: string, hash: string) => ({ type: 'file' as const, path, hash, size: 1, modified: 1 })

describe('createMemoryStorage', () => {
  it('keeps a blob while some file refers to it and drops it after', async () => {
    const storage = createMemoryStorage()
    await storage.commit({ put: [file('/a', 'h1'), file('/b', 'h1')], remove: [], blobs: [{ hash: 'h1', data: data('x') }] })
    await storage.commit({ put: [file('/a', 'h1')], remove: [], blobs: [{ hash: 'h1', data: data('x') }] })
    await storage.commit({ put: [], remove: ['/a'], blobs: [] })
    expect(await storage.readBlob('h1')).toEqual(data('x'))
    await storage.commit({ put: [file('/b', 'h2')], remove: [], blobs: [{ hash: 'h2', data: data('y') }] })
    expect(await storage.readBlob('h1')).toBeUndefined()
    expect(await storage.readBlob('h2')).toEqual(data('y'))
    expect(await storage.load()).toEqual([file('/b', 'h2')])
  })
})
