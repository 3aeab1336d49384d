import { describe, expect, it } from 'vitest'
import { deserializeError, isStorageFull, serializeError } from './errors'

describe('errors across the worker boundary', () => {
  it('names a full disk however the database wraps it, with advice and no loss implied', () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    const wrapped = Object.assign(new Error('Transaction aborted'), { name: 'AbortError', inner: quota })
    const bulk = Object.assign(new Error('2 of 3 operations failed'), { name: 'BulkError', failures: [new Error('x'), quota] })
    for (const error of [quota, wrapped, bulk]) {
      expect(isStorageFull(error)).toBe(true)
      const rebuilt = deserializeError(serializeError(error))
      expect(rebuilt.name).toBe('StorageFullError')
      expect(rebuilt.message).toMatch(/storage for tabcode is full.*Free some space/)
    }
    expect(isStorageFull(new Error('other'))).toBe(false)
    expect(serializeError(Object.assign(new Error('Transaction aborted'), { name: 'AbortError' })).name).toBe('AbortError')
  })
})
