import { describe, expect, it } from 'vitest'
import { AppError, deserializeError, serializeError } from '../../../core/errors'
import { describeFailure, isStorageFullError, STORAGE_FULL_MESSAGE } from './storage-full'

describe('storage full', () => {
  it('recognises the worker’s StorageFullError as it arrives over RPC', () => {
    const wrapped = Object.assign(new Error('Transaction aborted'), { name: 'AbortError', inner: new DOMException('quota', 'QuotaExceededError') })
    const rebuilt = deserializeError(serializeError(wrapped))
    expect(rebuilt.name).toBe('StorageFullError')
    expect(isStorageFullError(rebuilt)).toBe(true)
    expect(describeFailure('rename the session', rebuilt)).toBe(`Couldn't rename the session: ${STORAGE_FULL_MESSAGE}`)
  })

  it('recognises the raw browser error, bare or wrapped, and a turn’s stored error that carries its text', () => {
    expect(isStorageFullError(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))).toBe(true)
    expect(isStorageFullError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true)
    expect(isStorageFullError({ name: 'UnknownError', data: { message: 'QuotaExceededError: Encountered full disk while opening backing store' } })).toBe(true)
    expect(isStorageFullError({ name: 'AbortError', message: 'x', data: { inner: { name: 'QuotaExceededError', message: 'full' } } })).toBe(true)
  })

  it('leaves other failures and their own words alone', () => {
    const missing = new AppError('NotFoundError', 'session ses_x was not found', { kind: 'session', id: 'ses_x' })
    expect(isStorageFullError(missing)).toBe(false)
    expect(isStorageFullError(undefined)).toBe(false)
    expect(isStorageFullError('boom')).toBe(false)
    expect(describeFailure('open the session', missing)).toBe("Couldn't open the session: session ses_x was not found")
  })

  it('tells the user what to do', () => {
    expect(STORAGE_FULL_MESSAGE).toMatch(/storage for tabcode is full/)
    expect(STORAGE_FULL_MESSAGE).toMatch(/delete or export old sessions/)
  })
})
