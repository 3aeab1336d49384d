import { defineError } from '../core/errors'
import type { Handlers } from '../core/protocol/base'
import type { SyncApi, SyncConnectionReport, SyncServerInput } from '../core/protocol/sync'
import type { SyncSetup } from '../core/sync-state'
import type { StoreContext } from '../store/context'
import { forgetSyncSetup, readSyncPassword, readSyncSetup, saveSyncSetup, setSyncPaused } from '../store/sync-setup-store'
import { setOutboxRecording } from '../store/sync-rows'
import { unlock } from '../sync/replicator'
import { connectionReport, OFF, statusFromSetup } from './sync-schedule'
import { serverFor, type SyncService } from './sync-service'

/** The server or database is not ready to sync with; `report` is what the connection test says, with its fix. */
export const SyncConnectionError = defineError('SyncConnectionError', (report: Exclude<SyncConnectionReport, { type: 'ready' }>) => ({
  message:
    report.type === 'missing'
      ? `The sync database does not exist yet${report.mayCreate ? ': create it first' : ', and these credentials may not create it'}.`
      : report.type === 'unreachable'
        ? report.fix
        : report.type === 'unauthorised'
          ? `The sync server refused the username or password (${report.detail}).`
          : `The sync server refused the request (${report.detail}).`,
  data: { report },
}))

export interface SyncHandlerOptions {
  ready: () => StoreContext
  sync: SyncService
  /** This page's origin, which the server's CORS settings must let in. */
  origin: () => string
  fetch?: typeof fetch
}

/** Settings → Sync and the indicator's calls (`SyncApi`), answered by the worker's entry without the engine. */
export function syncHandlers(options: SyncHandlerOptions): Handlers<SyncApi> {
  const { ready, sync } = options
  const fetcher: typeof fetch = options.fetch ?? ((resource, init) => fetch(resource, init))

  /** The password typed, or the stored one when the form left it out for the server already set up. */
  async function passwordFor(input: SyncServerInput): Promise<string | undefined> {
    if (input.password !== undefined) return input.password
    const setup = await readSyncSetup(ready())
    // The password belongs to the server and the user, whatever the database.
    const sameServer = setup !== undefined && setup.url.replace(/\/+$/, '') === input.url.replace(/\/+$/, '') && setup.username === input.username
    return sameServer ? await readSyncPassword(ready()) : undefined
  }

  async function test(input: SyncServerInput): Promise<SyncConnectionReport> {
    return connectionReport(await serverFor(input, await passwordFor(input), fetcher).probe(), options.origin())
  }

  return {
    syncStatus: () => sync.status(),
    testSyncConnection: (input) => test(input),
    createSyncDatabase: async (input) => {
      await serverFor(input, await passwordFor(input), fetcher).createDatabase()
      return await test(input)
    },
    enableSync: async (input) => {
      const context = ready()
      const password = await passwordFor(input)
      const server = serverFor(input, password, fetcher)
      const report = connectionReport(await server.probe(), options.origin())
      if (report.type !== 'ready') throw new SyncConnectionError(report)
      // A wrong passphrase throws here (SyncPassphraseError): nothing is stored and no row is sent.
      const { key, ids } = await unlock(server, input.passphrase)
      const setup: SyncSetup = {
        type: 'sync-setup',
        url: input.url,
        database: input.database,
        ...(input.username ? { username: input.username } : {}),
        secrets: input.secrets,
        messages: input.messages,
        paused: false,
      }
      const before = await readSyncSetup(context)
      await saveSyncSetup(context, { setup, key, ids, ...(password !== undefined ? { password } : {}) })
      // What travels changed (keys now go, or no longer do): the next push looks at every row once.
      if (before !== undefined && before.secrets !== setup.secrets) await setOutboxRecording(context, true)
      sync.changed()
      return statusFromSetup(setup)
    },
    disableSync: async () => {
      await forgetSyncSetup(ready())
      // No write records itself for a sync that is off; turning it on again starts with one full scan.
      await setOutboxRecording(ready(), false)
      sync.changed()
      return OFF
    },
    pauseSync: async () => {
      const setup = await setSyncPaused(ready(), true)
      sync.changed()
      return statusFromSetup(setup)
    },
    resumeSync: async () => {
      const setup = await setSyncPaused(ready(), false)
      sync.changed()
      return statusFromSetup(setup)
    },
    syncNow: async () => {
      sync.now()
      return await sync.status()
    },
    fetchSyncedSession: ({ sessionID }) => sync.fetchSession(ready(), sessionID),
  }
}
