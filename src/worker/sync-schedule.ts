import type { SyncConnectionReport } from '../core/protocol/sync'
import type { SyncSetup, SyncStatus } from '../core/sync-state'
import type { ConnectionReport } from '../sync/couch'

/*
 * The sync service's decisions, as pure functions (the effects are in sync-service.ts): how long to wait before
 * trying again, what a failed round means for the user, and what the indicator shows.
 */

/** The first retry after the server could not be reached, and the longest wait between retries. */
export const FIRST_RETRY_MS = 1_000
export const LONGEST_RETRY_MS = 60_000

/** The wait before retry number `attempt` (1 = the first): 1 s, doubling, at most 60 s. */
export function retryDelay(attempt: number, first = FIRST_RETRY_MS, longest = LONGEST_RETRY_MS): number {
  return Math.min(longest, first * 2 ** Math.max(0, attempt - 1))
}

/**
 * What a round that failed means: `offline` is retried by itself with backoff (the server may come back); `error`
 * waits for the user, with the fix to show.
 */
export type RoundFailure = { type: 'offline' } | { type: 'error'; name: string; message: string; fix: string }

interface NamedError {
  name?: unknown
  message?: unknown
  data?: unknown
}

/** Reads a failed round's error by its stable name (errors from `defineError`), so nothing here imports sync's code. */
export function classifyFailure(error: unknown): RoundFailure {
  const named = (typeof error === 'object' && error !== null ? error : {}) as NamedError
  const name = typeof named.name === 'string' ? named.name : 'Error'
  const message = typeof named.message === 'string' ? named.message : String(error)
  const reason = typeof named.data === 'object' && named.data !== null ? (named.data as { reason?: unknown }).reason : undefined
  const fail = (fix: string): RoundFailure => ({ type: 'error', name, message, fix })
  if (name === 'SyncServerError') {
    if (reason === 'unreachable') return { type: 'offline' }
    if (reason === 'unauthorised') return fail('The server refused the stored username or password. Enter them again in Settings → Sync.')
    if (reason === 'missing') return fail('The sync database is gone from the server (deleted or renamed). Create it again from Settings → Sync, or set up another one.')
    return fail('The sync server refused a request. Check the server, then choose Sync now.')
  }
  if (name === 'SyncPassphraseError' || name === 'SyncKeyChangedError')
    return fail('The sync passphrase was changed on another device (or the database was set up again). Turn sync off and on in Settings → Sync with the new passphrase.')
  if (name === 'SyncKeyCheckError') return fail('The sync database asks for a key too weak to trust. Set up a new database in Settings → Sync.')
  if (name === 'SyncDecryptError') return fail('A document on the server does not open with this device\'s key: it was changed, or written with another passphrase. Check the server, then set sync up again in Settings → Sync.')
  return fail('Sync stopped on an unexpected error. Choose Sync now to try again; if it persists, turn sync off and on in Settings → Sync.')
}

/** The CouchDB settings that let this page's origin in (`[cors]`), as the user adds them to the server's local.ini. */
export function corsSettings(origin: string): string {
  return [
    '[chttpd]',
    'enable_cors = true',
    '',
    '[cors]',
    `origins = ${origin}`,
    'credentials = true',
    'methods = GET, PUT, POST, HEAD, DELETE',
    'headers = accept, authorization, content-type, origin, referer',
  ].join('\n')
}

/** A connection test's answer for Settings → Sync: an unreachable server names both a wrong URL and CORS. */
export function connectionReport(report: ConnectionReport, origin: string): SyncConnectionReport {
  if (report.type !== 'unreachable') return report
  return {
    type: 'unreachable',
    detail: report.detail,
    fix:
      'The server did not answer. Either it is not running or the URL is wrong, or it refuses this page (CORS: the ' +
      `browser hides that answer). For CouchDB, add to its configuration (local.ini) and restart it:\n${corsSettings(origin)}`,
  }
}

/** The status with no server set up: nothing contacts a server. */
export const OFF: SyncStatus = { type: 'sync-status', state: 'off', pending: 0 }

/** The status a tab that does not run sync can tell from the stored setup alone, until the running tab's arrives. */
export function statusFromSetup(setup: SyncSetup | undefined): SyncStatus {
  if (!setup) return OFF
  return { type: 'sync-status', state: setup.paused ? 'paused' : 'syncing', setup, pending: 0 }
}
