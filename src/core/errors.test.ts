import { describe, expect, it } from 'vitest'
import { AppError, defineError, deserializeError, isStorageFull, NotFoundError, serializeError } from './errors'
import { WorkspaceError } from './workspace'

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

describe('defined errors', () => {
  const ShelfError = defineError('ShelfError', (shelf: string, count: number) => ({ message: `${shelf} holds ${count}`, data: { shelf, count } }))

  it('makes a named class with its message and data from one definition', () => {
    const error = new ShelfError('top', 3)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toBeInstanceOf(ShelfError)
    expect(error).toMatchObject({ name: 'ShelfError', message: 'top holds 3', data: { shelf: 'top', count: 3 } })
    expect(ShelfError.errorName).toBe('ShelfError')
    expect(ShelfError.name).toBe('ShelfError')
    expect(error.toObject()).toEqual({ name: 'ShelfError', message: 'top holds 3', data: { shelf: 'top', count: 3 } })
  })

  it('recognises its errors, also rebuilt after crossing the worker boundary, and nothing else', () => {
    const rebuilt = deserializeError(serializeError(new ShelfError('top', 3)))
    expect(rebuilt).not.toBeInstanceOf(ShelfError)
    expect(ShelfError.isInstance(rebuilt)).toBe(true)
    expect(ShelfError.isInstance(new ShelfError('top', 3))).toBe(true)
    expect(ShelfError.isInstance(new NotFoundError('shelf', 'top'))).toBe(false)
    expect(ShelfError.isInstance(Object.assign(new Error('x'), { name: 'ShelfError' }))).toBe(false)
    expect(ShelfError.isInstance(undefined)).toBe(false)
  })

  it('keeps a family base class for instanceof checks of the whole family', () => {
    class FamilyError<Data extends Record<string, unknown> = Record<string, unknown>> extends AppError<Data> {}
    const MemberError = defineError('MemberError', () => ({ message: 'member', data: {} }), FamilyError)
    expect(new MemberError()).toBeInstanceOf(FamilyError)
    expect(new MemberError()).toMatchObject({ name: 'MemberError', message: 'member' })
  })

  it('carries a workspace failure’s code and path across the worker boundary', () => {
    const crossed = deserializeError(serializeError(new WorkspaceError('exists', '/workspace/a.ts', 'a.ts already exists')))
    expect(WorkspaceError.isInstance(crossed)).toBe(true)
    expect(crossed).toMatchObject({ name: 'WorkspaceError', message: 'a.ts already exists', data: { code: 'exists', path: '/workspace/a.ts' } })
  })
})
