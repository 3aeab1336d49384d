import * as Comlink from 'comlink'
import { log, setLogSecrets } from '../core/log'
import { broadcastCommands } from './command-channel'
import { makeEventOutbox } from './event-outbox'
import { openDatabase } from '../store/open-database'
import type { TabcodeDatabase } from '../store/database'
import { backfillState, runSearchBackfill } from '../store/search-backfill'
import { watchApiKeys } from '../store/provider-store'
import { watchMcpSecrets } from '../store/mcp-store'
import { watchSyncPassword } from '../store/sync-setup-store'
import { EVENT_CHANNEL } from '../core/protocol'
import type { SessionEvent } from '../core/event'
import { openEventChannel } from './event-channel'
import { createService } from './service'
import { makeLocalLocks, type Locks } from './locks'
import type { ModelSource } from '../session/model-source'
import type { StoreContext } from '../store/context'
import { toWire } from '../core/wire'
import { broadcastSync } from './sync-channel'

// Every tab's UI (including this worker's own) listens on the channel, so one post reaches all of them. Events from
// other tabs' workers: a session another tab runs is watched, so that if that tab dies this one repairs the session
// and tells every tab it is idle; an answer given in another tab settles the question this tab's runner waits on;
// another tab's writes and sync status reach this tab's sync service.
const channel = openEventChannel(EVENT_CHANNEL, (event) => hearOtherTab(event))
const outbox = makeEventOutbox(channel.post)

// Web Locks make one runner per session across tabs; without them (very old browsers) each tab is on its own.
const locks: Locks = (navigator as Navigator & { locks?: Locks }).locks ?? makeLocalLocks()

// Nothing reaches the console unredacted: an error nobody caught (a provider's, echoing the key) goes through the
// logger instead of the browser's own report.
self.addEventListener('unhandledrejection', (event) => {
  event.preventDefault()
  log.error('tabcode: unhandled rejection in the worker', event.reason)
})
// Until the API is exposed, an uncaught error must still reach the page's Worker 'error' listener, which turns it
// into the "worker failed to load" screen; nothing has touched a key by then.
let exposed = false
self.addEventListener('error', (event) => {
  if (!exposed) return
  event.preventDefault()
  log.error('tabcode: uncaught error in the worker', event.error ?? event.message)
})
// The AI SDK's own warnings would go to console.warn directly.
;(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (warnings: unknown) => log.warn('tabcode: AI SDK warnings', warnings)

/** Opens the database and keeps the logger's secrets at the stored keys, including keys another tab saves. */
let watchingKeys: { unsubscribe(): void } | undefined
async function openAndWatchKeys() {
  const opened = await openDatabase()
  if (opened.status !== 'open') return opened
  // A reopen (after another tab's upgrade) watches the new connection only.
  watchingKeys?.unsubscribe()
  // API keys, MCP header values and the sync server's password are all secrets the logger must never print.
  let keys: string[] = []
  let headers: string[] = []
  let sync: string[] = []
  const error = (error: unknown) => log.warn('tabcode: could not watch the stored keys', error)
  const apiKeys = watchApiKeys(opened.db, { next: (next) => setLogSecrets([...(keys = next), ...headers, ...sync]), error })
  const mcpHeaders = watchMcpSecrets(opened.db, { next: (next) => setLogSecrets([...keys, ...(headers = next), ...sync]), error })
  const syncPassword = watchSyncPassword(opened.db, { next: (next) => setLogSecrets([...keys, ...headers, ...(sync = next)]), error })
  watchingKeys = {
    unsubscribe: () => {
      apiKeys.unsubscribe()
      mcpHeaders.unsubscribe()
      syncPassword.unsubscribe()
    },
  }
  void backfillSearch(opened.db)
  return opened
}

/**
 * Indexes, in the background, the parts a database upgraded from before the word index holds (search scans them
 * until then). One tab does it at a time; a closed tab's progress is kept and the next open resumes it.
 */
async function backfillSearch(db: TabcodeDatabase) {
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
  try {
    if (!(await backfillState(db))) return
    await locks.request('tabcode:search-backfill', { ifAvailable: true }, async (lock) => {
      if (lock) await runSearchBackfill(db, pause)
    })
  } catch (error) {
    log.warn('tabcode: the search index backfill stopped; search scans what it has not indexed', error)
  }
}

/** The configured providers, whose code loads with the engine: the first screen never waits for it. */
function providerModels(store: StoreContext): ModelSource {
  const source = import('./model-source').then(({ makeModelSource }) => makeModelSource(store))
  return {
    resolve: async (reference) => (await source).resolve(reference),
    smallModel: async (near) => (await source).smallModel(near),
  }
}

const service = createService({
  open: openAndWatchKeys,
  emit: outbox.emit,
  version: __APP_VERSION__,
  models: providerModels,
  locks,
  commands: broadcastCommands(),
  syncChannel: broadcastSync(),
  network: {
    online: () => navigator.onLine,
    onChange: (listener) => {
      self.addEventListener('online', listener)
      self.addEventListener('offline', listener)
    },
  },
  origin: () => self.location.origin,
})

function hearOtherTab(event: SessionEvent) {
  service.hearEvent(event)
  if (event.type !== 'session.status' || event.status.type === 'idle') return
  service.watchSession(event.sessionID)
}

const { watchSession: _watch, hearEvent: _hear, ...handlers } = service
Comlink.expose(toWire(handlers))
exposed = true
