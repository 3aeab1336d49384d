import { describe, expect, it, vi } from 'vitest'
import { askOnce, formatBytes, fullness, localAskedMemory, PERSIST_ASKED_KEY, readStorageReport, type AskedMemory } from './persistent-storage'

function memory(initial = false): AskedMemory & { asked: boolean } {
  const state = { asked: initial, get: () => state.asked, set: () => void (state.asked = true) }
  return state
}

describe('persistent storage', () => {
  it('asks the browser once, and remembers that it asked even when refused', async () => {
    const persist = vi.fn(async () => false)
    const manager = { persist, persisted: async () => false }
    const asked = memory()
    expect(await askOnce(manager, asked)).toBe(true)
    expect(await askOnce(manager, asked)).toBe(false)
    expect(persist).toHaveBeenCalledOnce()
    expect(asked.asked).toBe(true)
  })

  it('does not ask when storage is already persistent, or when the browser has no way to ask', async () => {
    const persist = vi.fn(async () => true)
    expect(await askOnce({ persist, persisted: async () => true }, memory())).toBe(false)
    expect(persist).not.toHaveBeenCalled()
    expect(await askOnce(undefined, memory())).toBe(false)
    expect(await askOnce({ estimate: async () => ({}) }, memory())).toBe(false)
  })

  it('reads what the browser says and leaves the rest unknown', async () => {
    expect(await readStorageReport({ persisted: async () => true, estimate: async () => ({ usage: 5, quota: 10 }) })).toEqual({ persisted: true, usage: 5, quota: 10 })
    expect(await readStorageReport({ estimate: () => Promise.reject(new Error('no')) })).toEqual({ persisted: undefined, usage: undefined, quota: undefined })
    expect(await readStorageReport(undefined)).toEqual({ persisted: undefined, usage: undefined, quota: undefined })
  })

  it('keeps the flag in localStorage, and survives a storage that throws', () => {
    const values = new Map<string, string>()
    const storage = { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value) }
    const remembered = localAskedMemory(storage)
    expect(remembered.get()).toBe(false)
    remembered.set()
    expect(remembered.get()).toBe(true)
    expect(values.has(PERSIST_ASKED_KEY)).toBe(true)
    const broken = localAskedMemory({
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError')
      },
    })
    expect(broken.get()).toBe(false)
    expect(() => broken.set()).not.toThrow()
  })

  it('writes sizes the way disks are labelled', () => {
    expect(formatBytes(0)).toBe('0 bytes')
    expect(formatBytes(512)).toBe('512 bytes')
    expect(formatBytes(12_345_678)).toBe('12.3 MB')
    expect(formatBytes(1_200_000_000)).toBe('1.2 GB')
    expect(formatBytes(2_000)).toBe('2 kB')
    expect(formatBytes(345_600_000)).toBe('346 MB')
  })

  it('says how full the share is only when the quota is known', () => {
    expect(fullness({ usage: 50, quota: 100 })).toBe(0.5)
    expect(fullness({ usage: 500, quota: 100 })).toBe(1)
    expect(fullness({ usage: 50, quota: undefined })).toBeUndefined()
    expect(fullness({ usage: 50, quota: 0 })).toBeUndefined()
  })
})
