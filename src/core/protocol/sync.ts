import type { SyncStatus } from '../sync-state'

/** A sync server and database as the user typed them; a password left out keeps the one stored for that server. */
export interface SyncServerInput {
  url: string
  database: string
  username?: string
  password?: string
}

/** The outcome of Settings → Sync's "Test connection", each with what the user can do about it. */
export type SyncConnectionReport =
  | { type: 'ready' }
  | { type: 'missing'; mayCreate: boolean }
  /** A browser cannot tell a refused CORS request from a server that is down: `fix` names both. */
  | { type: 'unreachable'; detail: string; fix: string }
  | { type: 'unauthorised'; detail: string }
  | { type: 'refused'; detail: string }

/**
 * End-to-end encrypted sync with a CouchDB-protocol server the user owns (issue 31, docs/sync.md). Nothing contacts a
 * server until `enableSync`. Every call answers the status as it is after it.
 */
export interface SyncApi {
  syncStatus(): SyncStatus
  /** Checks a server and database; stores nothing. */
  testSyncConnection(input: SyncServerInput): SyncConnectionReport
  /** Creates the database, after the user chose to; answers the connection test after it. */
  createSyncDatabase(input: SyncServerInput): SyncConnectionReport
  /**
   * Stores the setup (the password like an API key), opens the server's key check with the passphrase and starts
   * syncing. A wrong passphrase fails with `SyncPassphraseError` and stores and sends nothing.
   */
  enableSync(input: SyncServerInput & { passphrase: string; secrets: boolean; messages: 'all' | 'on-demand' }): SyncStatus
  /** Stops syncing and forgets the server, its password and the key; every local row stays. */
  disableSync(): SyncStatus
  pauseSync(): SyncStatus
  resumeSync(): SyncStatus
  /** A round now, even while waiting out a backoff. */
  syncNow(): SyncStatus
  /** With `messages: 'on-demand'`: takes one session's messages and parts now (opening the session asks for it). */
  fetchSyncedSession(input: { sessionID: string }): { fetched: number }
}
