// Type-only zod: the UI thread imports this file (through worker/wire.ts) and must not pull zod into its bundle.
import type { z } from 'zod'

/** `APIError.data.metadata.reason` of a used-up quota: the banner names it, and it is never retried. */
export const QUOTA_REASON = 'quota'

/**
 * Errors that cross the worker boundary. Structured clone keeps only `name` and `message` of an Error, so every
 * app error is also a plain `{name, message, data}` object (see `toObject`) and is rebuilt on the other side.
 */
export class AppError<Data extends Record<string, unknown> = Record<string, unknown>> extends Error {
  readonly data: Data
  constructor(name: string, message: string, data: Data, options?: { cause?: unknown }) {
    super(message, options)
    this.name = name
    this.data = data
  }
  toObject(): SerializedError {
    return { name: this.name, message: this.message, data: this.data }
  }
}

export interface SerializedError {
  name: string
  message: string
  data: Record<string, unknown>
}

/** An error `defineError` made: its instances carry the name and their data; `isInstance` recognises one. */
export interface ErrorClass<Name extends string, Data extends Record<string, unknown>, Args extends unknown[]> {
  new (...args: Args): NamedError<Name, Data>
  /** The stable name every instance carries, the one the UI, the logs and stored records switch on. */
  readonly errorName: Name
  /** Whether `value` is this error: an instance, or one rebuilt from `{name, message, data}` after crossing the worker boundary. */
  isInstance(value: unknown): value is NamedError<Name, Data>
}

export type NamedError<Name extends string, Data extends Record<string, unknown>> = AppError<Data> & { readonly name: Name }

/**
 * The one way to define an app error: its name, and how its arguments make its message and data. Everything else
 * comes from that: the class (with `name`, `message`, `data`, `toObject`), `errorName` and the `isInstance` guard. An error
 * that is stored, not only thrown, adds its data schema beside it (see `storedError` in core/schema/error.ts).
 */
export function defineError<const Name extends string, Data extends Record<string, unknown>, Args extends unknown[]>(
  name: Name,
  /** `cause`: the error underneath, kept for the console and the logs (it does not cross the worker boundary). */
  create: (...args: Args) => { message: string; data: Data; cause?: unknown },
  /** A family's own base class (an `instanceof` check for the whole family), else AppError. */
  base: typeof AppError = AppError,
): ErrorClass<Name, Data, Args> {
  class Defined extends base<Data> {
    static readonly errorName = name
    static isInstance(value: unknown): value is NamedError<Name, Data> {
      return isNamed(value, name)
    }
    constructor(...args: Args) {
      const { message, data, cause } = create(...args)
      super(name, message, data, cause === undefined ? undefined : { cause })
    }
  }
  // The class is named after the error, as a hand-written one would be (stack traces, the console).
  Object.defineProperty(Defined, 'name', { value: name })
  return Defined as unknown as ErrorClass<Name, Data, Args>
}

/** Whether `value` (an error or the plain `{name, data}` it crossed a boundary as) carries the name `name`. */
function isNamed(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === name && typeof (value as { data?: unknown }).data === 'object'
}

export const NotFoundError = defineError('NotFoundError', (kind: string, id: string) => ({ message: `${kind} ${id} was not found`, data: { kind, id } }))

export const ValidationError = defineError('ValidationError', (shape: string, issues: string) => ({ message: `Invalid ${shape}: ${issues}`, data: { shape, issues } }))

export const InputError = defineError('InputError', (field: string, message: string) => ({ message, data: { field } }))

/** A compaction marker must be a prompt (a user message): it is the point whose history the summary replaces. */
export const CompactionMarkerError = defineError('CompactionMarkerError', (messageID: string, role: string) => ({
  message: `The compaction marker ${messageID} is on an ${role} message, not a prompt, so it has no history to summarise.`,
  data: { messageID, role },
}))

/** The session is running a turn; history operations (revert, compaction, …) wait until it is idle. */
export const BusyError = defineError('BusyError', (sessionID: string, action: string) => ({
  message: `The session is still working; stop it or wait for it to finish before you ${action}.`,
  data: { sessionID, action },
}))

/** The editor saved over a file that changed on disk since it was opened; nothing was written. */
export const SaveConflictError = defineError('SaveConflictError', (path: string) => ({
  message: `${path} changed since you opened it, so your version was not saved over it.`,
  data: { path },
}))

/**
 * The browser refused a write because the origin's storage is full. A transaction that fails this way writes
 * nothing, so what was stored before stays whole; the message says what to do.
 */
export const StorageFullError = defineError('StorageFullError', (detail: string) => ({
  message:
    "The browser's storage for tabcode is full, so the last change was not saved (what was saved before is intact). Free some space: delete or export old sessions, or allow more storage for this site, then try again.",
  data: { detail },
}))

/**
 * The user cancelled a long operation (an import, an export, a project's files) while it ran. An import that stops
 * this way aborts its one transaction, so nothing of it is stored; an export just hands nothing back.
 */
export const CancelledError = defineError('CancelledError', (what: string) => ({ message: `${what} was cancelled.`, data: { what } }))

/** Stops the work with `CancelledError` once `signal` asks it to. */
export function throwIfCancelled(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new CancelledError(what)
}

/** Whether an error is (or wraps, as Dexie's AbortError and BulkError do) the browser's QuotaExceededError. */
export function isStorageFull(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false
  const value = error as { name?: unknown; inner?: unknown; cause?: unknown; failures?: unknown }
  if (value.name === 'QuotaExceededError' || value.name === 'StorageFullError') return true
  if (isStorageFull(value.inner, depth + 1) || isStorageFull(value.cause, depth + 1)) return true
  return Array.isArray(value.failures) && value.failures.some((failure) => isStorageFull(failure, depth + 1))
}

/** Turns a zod failure into one line a person (or a test) can read: `path: problem; path: problem`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ')
}

/** Parses with a schema and throws a named ValidationError whose message says which fields are wrong. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, shape: string): T {
  const result = schema.safeParse(value)
  if (!result.success) throw new ValidationError(shape, describeIssues(result.error))
  return result.data
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof AppError) return error.toObject()
  if (isStorageFull(error)) return new StorageFullError(error instanceof Error ? error.message : String(error)).toObject()
  if (error instanceof Error) {
    const data: Record<string, unknown> = {}
    // Dexie wraps the DOMException that says what really happened (QuotaExceededError inside AbortError).
    const inner = (error as { inner?: unknown }).inner
    if (inner instanceof Error) data.inner = { name: inner.name, message: inner.message }
    return { name: error.name || 'Error', message: error.message, data }
  }
  return { name: 'UnknownError', message: String(error), data: {} }
}

export function deserializeError(value: SerializedError): AppError {
  return new AppError(value.name, value.message, value.data)
}
