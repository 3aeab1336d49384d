import { isStorageFull, StorageFullError } from '../../../core/errors'
import { errorMessage } from './error'

/** What the worker says when the origin's storage is full; one wording, whichever write failed. */
export const STORAGE_FULL_MESSAGE = new StorageFullError('').message

// A turn that fails on a full disk reaches the UI as a MessageError (`UnknownError` with the browser's raw text),
// because the loop keeps only the message; these are the words browsers and Dexie use for it.
const RAW_QUOTA_TEXT = /QuotaExceededError|quota (?:has been |was )?exceeded|exceeded the quota|storage is full|storage for tabcode is full/i

/**
 * Whether a failure means "the disk is full": a rebuilt `StorageFullError` from an RPC, the browser's own
 * `QuotaExceededError` (also wrapped in an abort, as Dexie does), or a stored message error that carries its text.
 */
export function isStorageFullError(error: unknown): boolean {
  if (isStorageFull(error)) return true
  if (!error || typeof error !== 'object') return false
  const value = error as { name?: unknown; message?: unknown; data?: { message?: unknown; inner?: unknown } }
  if (isStorageFull(value.data?.inner)) return true
  const text = [value.message, value.data?.message].filter((part): part is string => typeof part === 'string').join(' ')
  return RAW_QUOTA_TEXT.test(text)
}

/** The sentence to show for a failed action: the storage-full wording whenever that is the cause, raw or not. */
export function failureMessage(error: unknown): string {
  return isStorageFullError(error) ? STORAGE_FULL_MESSAGE : errorMessage(error)
}

/** "Couldn't <what>: <reason>", with the clear storage-full reason whatever shape the error came in. */
export function describeFailure(what: string, error: unknown): string {
  return `Couldn't ${what}: ${failureMessage(error)}`
}
