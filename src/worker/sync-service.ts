import { defineError, parseWith } from '../core/errors'
import type { SessionEvent } from '../core/event'
import { log } from '../core/log'
import type { SyncServerInput } from '../core/protocol/sync'
import type { SyncSetup, SyncStatus } from '../core/sync-state'
import { isTerminalPart } from '../core/terminal-part'
import type { StoreContext } from '../store/context'
import { hasSyncCheckpoint, readStoredSync, readSyncSetup, type StoredSync } from '../store/sync-setup-store'
import { CouchDatabase } from '../sync/couch'
import { verifyKeyCheck } from '../sync/crypto'
import { KEY_CHECK_ID, KeyCheckDocumentSchema } from '../sync/protocol'
import { replicate } from '../sync/replicator'
import type { Locks } from './locks'
import { classifyFailure, OFF, retryDelay, statusFromSetup, FIRST_RETRY_MS, LONGEST_RETRY_MS } from './sync-schedule'

/*
 * The worker's sync service (issue 31, docs/sync.md): one tab at a time replicates with the server the user set up.
 * Each tab has its own worker; they queue on one Web Lock, so the tab holding it syncs and the next one takes over
 * when it closes. The others reach it through a broadcast channel (pause, resume, sync now, a new setup) and show
 * its status from the `sync.status` events it emits to every tab.
 *
 * While it holds the lock and a setup exists: a round at once (a reload resumes from the stored checkpoint), then it
 * waits on the server's `_changes?feed=longpoll` (another device's change starts a round within seconds) and on this
 * profile's own writes (a round shortly after, debounced). A server it cannot reach makes it `offline` and it retries
 * with backoff; pausing, disabling or going offline aborts the round in flight. Nothing contacts a server without a
 * setup. The decisions are pure functions in sync-schedule.ts.
 */

/** What the tabs' workers tell each other about sync. */
export type SyncMessage =
  /** The setup changed (enabled, disabled, paused, resumed): the syncing tab reads it again. */
  | { type: 'changed' }
  /** Sync now, asked in another tab. */
  | { type: 'now' }
  /** A tab that just started asks for the status. */
  | { type: 'status' }

export interface SyncChannel {
  post(message: SyncMessage): void
  listen(listener: (message: SyncMessage) => void): void
}

/** The browser's idea of being online (`navigator.onLine` and its events); a server can still be unreachable. */
export interface SyncNetwork {
  online(): boolean
  onChange(listener: () => void): void
}

export interface SyncTiming {
  /** A round starts this long after the last of a burst of local writes. */
  debounceMs: number
  firstRetryMs: number
  longestRetryMs: number
  /** How long one `_changes` long poll waits before the server answers with nothing. */
  longpollMs: number
  /**
   * While the browser says it is offline, how often to look again: a dedicated worker's `navigator.onLine` changes
   * but Chromium fires no `online` event there (seen in the e2e suite), so waiting for the event alone could wait for
   * ever.
   */
  offlineCheckMs: number
}

export const SYNC_TIMING: SyncTiming = { debounceMs: 500, firstRetryMs: FIRST_RETRY_MS, longestRetryMs: LONGEST_RETRY_MS, longpollMs: 25_000, offlineCheckMs: 5_000 }

export interface SyncServiceOptions {
  locks: Locks
  channel: SyncChannel
  network: SyncNetwork
  fetch?: typeof fetch
  timing?: Partial<SyncTiming>
  /** What a pull announced (a file another device wrote, …), for the worker's caches of stored rows. */
  onPulled?: (event: SessionEvent) => void
}

export interface SyncService {
  /** The database is open: queue for the lock (no server is contacted unless a setup exists). */
  start(store: StoreContext): void
  /** The database is closing: stop syncing and let another tab take the lock. */
  stop(): void
  status(): Promise<SyncStatus>
  /** The setup was changed in this tab: the syncing tab (this one or another) reads it again. */
  changed(): void
  /** A round now, skipping a backoff's wait. */
  now(): void
  /** An event from this worker or another tab's: local writes start a round, other tabs' statuses are shown here. */
  hear(event: SessionEvent): void
  /** One session's messages and parts, for a device that takes them on demand. */
  fetchSession(store: StoreContext, sessionID: string): Promise<{ fetched: number }>
}

export const SyncOffError = defineError('SyncOffError', () => ({ message: 'Sync is not set up on this device.', data: {} as Record<string, never> }))

/** The server's key check is gone: the database was emptied or set up again; the stored key may no longer fit. */
export const SyncKeyChangedError = defineError('SyncKeyChangedError', () => ({
  message: "The sync database's key check is gone: the database was reset or set up again.",
  data: {} as Record<string, never>,
}))

/** `Basic` credentials for CouchDB, UTF-8 encoded (`btoa` alone takes Latin-1 only). */
function basicAuthorization(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `Basic ${btoa(binary)}`
}

/** A client for the database a setup or a Settings form names; `signal` ends every request it makes. */
export function serverFor(input: Pick<SyncServerInput, 'url' | 'database' | 'username'>, password: string | undefined, fetcher: typeof fetch, signal?: AbortSignal): CouchDatabase {
  const authorization = input.username ? basicAuthorization(input.username, password ?? '') : undefined
  return new CouchDatabase({
    url: input.url,
    database: input.database,
    ...(authorization ? { authorization } : {}),
    fetch: (resource, init) => fetcher(resource, signal ? { ...init, signal } : init),
  })
}

/** Events that say a row sync carries changed in this profile. A streaming part waits until it ends. */
function isSyncedWrite(event: SessionEvent): boolean {
  switch (event.type) {
    case 'session.created':
    case 'session.updated':
    case 'session.deleted':
    case 'message.updated':
    case 'message.removed':
    case 'part.removed':
    case 'project.updated':
    case 'approval.updated':
      return true
    case 'part.updated':
      return isTerminalPart(event.part)
    default:
      return false
  }
}

const LOCK = 'tabcode:sync'
/**
 * Held for each round and each on-demand fetch, in whichever tab: two at once would write this device's one checkpoint
 * on the server together (the second write conflicts) and exchange the same rows twice.
 */
const ROUND_LOCK = 'tabcode:sync-round'

export function createSyncService(options: SyncServiceOptions): SyncService {
  const timing = { ...SYNC_TIMING, ...options.timing }
  // Looked up at each call, so a test that replaces the global sees every request.
  const fetcher: typeof fetch = options.fetch ?? ((resource, init) => fetch(resource, init))
  let store: StoreContext | undefined
  let holding = false
  // Each start is a new run; a run left from before a stop ends, and lets the next one have the lock.
  let generation = 0
  let current: SyncStatus = OFF
  let heard: SyncStatus | undefined
  let lastSynced: number | undefined
  // The round or long poll in flight, aborted when the setup changes, the browser goes offline or the tab stops.
  let inFlight: AbortController | undefined
  // Ends the current wait; a kick that comes while nothing waits is kept for the next wait.
  let wake: (() => void) | undefined
  let woken = false
  let debounce: ReturnType<typeof setTimeout> | undefined

  const kick = () => {
    if (!wake) {
      woken = true
      return
    }
    const resolve = wake
    wake = undefined
    resolve()
  }
  const interrupt = () => {
    inFlight?.abort()
    kick()
  }
  /** Waits for a kick, or `ms` when given. */
  const wait = (ms?: number) =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false
        resolve()
        return
      }
      const done = () => {
        if (timer !== undefined) clearTimeout(timer)
        if (wake === done) wake = undefined
        resolve()
      }
      const timer = ms === undefined ? undefined : setTimeout(done, ms)
      wake = done
    })

  /** The store as the replicator writes through it: what it announces also reaches `onPulled`. */
  const pulling = (context: StoreContext): StoreContext => ({
    ...context,
    emit: (event) => {
      context.emit(event)
      options.onPulled?.(event)
    },
  })

  const setStatus = (next: SyncStatus, force = false) => {
    if (!force && JSON.stringify(next) === JSON.stringify(current)) return
    current = next
    store?.emit({ type: 'sync.status', status: next })
  }
  const statusOf = (setup: SyncSetup, state: SyncStatus['state'], extra: Partial<SyncStatus> = {}): SyncStatus => ({
    type: 'sync-status',
    state,
    setup,
    pending: 0,
    ...(lastSynced !== undefined ? { lastSynced } : {}),
    ...extra,
  })

  options.channel.listen((message) => {
    if (!holding) return
    if (message.type === 'changed') interrupt()
    else if (message.type === 'now') kick()
    else setStatus(current, true)
  })
  options.network.onChange(() => {
    if (!holding) return
    // Offline: the round in flight would only fail; online: skip the backoff's wait.
    if (!options.network.online()) interrupt()
    else kick()
  })

  /** One round: the key check (a passphrase changed elsewhere stops here), then pull and push. Answers where the feed stood. */
  async function round(context: StoreContext, stored: StoredSync, signal: AbortSignal): Promise<string> {
    const server = serverFor(stored.setup, stored.password, fetcher, signal)
    const since = await server.updateSeq()
    const check = await server.get(KEY_CHECK_ID)
    if (check === undefined) throw new SyncKeyChangedError()
    await verifyKeyCheck(stored.key, KEY_CHECK_ID, parseWith(KeyCheckDocumentSchema, check, 'sync key check'))
    const first = lastSynced === undefined && !(await hasSyncCheckpoint(context))
    const { setup } = stored
    await replicate({
      context: pulling(context),
      server,
      key: { key: stored.key, ids: stored.ids },
      device: stored.device,
      signal,
      scope: setup.messages === 'on-demand' ? { type: 'sessions' } : { type: 'all' },
      secrets: setup.secrets,
      onProgress: ({ done, total }) => {
        if (signal.aborted) return
        setStatus(statusOf(setup, 'syncing', { pending: Math.max(0, total - done), ...(first ? { progress: { done, total } } : {}) }))
      },
    })
    return since
  }

  /** Waits until the server's feed moves past `since` or something here asks for a round; throws what the poll met. */
  async function waitForChange(stored: StoredSync, since: string): Promise<void> {
    for (;;) {
      const controller = new AbortController()
      inFlight = controller
      const server = serverFor(stored.setup, stored.password, fetcher, controller.signal)
      const kicked = wait().then(() => 'kicked' as const)
      const polled = server.changesLongpoll(since, controller.signal, timing.longpollMs).then((answer) => (answer.changed ? ('changed' as const) : ('quiet' as const)))
      try {
        const outcome = await Promise.race([kicked, polled])
        if (outcome !== 'quiet') return
      } catch (error) {
        if (controller.signal.aborted) return
        throw error
      } finally {
        controller.abort()
        // The poll ended first: this wait no longer listens; a later kick is kept for the next one.
        wake = undefined
        polled.catch(() => {})
      }
    }
  }

  async function run(mine: number): Promise<void> {
    const stopped = () => generation !== mine || !store
    let attempt = 0
    // Where the server's feed stood when the last good round began: the long poll waits for anything past it.
    let since: string | undefined
    while (!stopped()) {
      const context = store!
      const stored = await readStoredSync(context)
      if (stopped()) return
      if (!stored) {
        since = undefined
        setStatus(OFF)
        await wait()
        continue
      }
      const { setup } = stored
      if (setup.paused) {
        since = undefined
        setStatus(statusOf(setup, 'paused'))
        await wait()
        continue
      }
      if (!options.network.online()) {
        since = undefined
        setStatus(statusOf(setup, 'offline'))
        await wait(timing.offlineCheckMs)
        continue
      }
      const controller = new AbortController()
      inFlight = controller
      try {
        if (since !== undefined) {
          const waitingFrom = since
          since = undefined
          await waitForChange(stored, waitingFrom)
          continue
        }
        setStatus(statusOf(setup, 'syncing', { pending: current.state === 'syncing' ? current.pending : 0 }))
        since = await options.locks.request(ROUND_LOCK, { signal: controller.signal }, () => round(context, stored, controller.signal))
        attempt = 0
        lastSynced = context.now()
        setStatus(statusOf(setup, 'synced'))
      } catch (error) {
        since = undefined
        // Paused, disabled or offline meanwhile: the next turn of the loop reads what now holds.
        if (controller.signal.aborted || stopped()) continue
        const failure = classifyFailure(error)
        if (failure.type === 'offline') {
          attempt += 1
          setStatus(statusOf(setup, 'offline'))
          await wait(retryDelay(attempt, timing.firstRetryMs, timing.longestRetryMs))
          continue
        }
        log.warn('tabcode: sync stopped', error)
        attempt = 0
        setStatus(statusOf(setup, 'error', { error: { name: failure.name, message: failure.message, fix: failure.fix } }))
        await wait()
      } finally {
        if (inFlight === controller) inFlight = undefined
      }
    }
  }

  return {
    start(context) {
      const mine = ++generation
      store = context
      options.channel.post({ type: 'status' })
      void options.locks
        .request(LOCK, {}, async () => {
          if (generation !== mine) return
          holding = true
          try {
            await run(mine)
          } finally {
            if (generation === mine) holding = false
          }
        })
        .catch((error: unknown) => log.warn('tabcode: the sync service stopped', error))
    },
    stop() {
      generation += 1
      holding = false
      store = undefined
      if (debounce !== undefined) clearTimeout(debounce)
      interrupt()
    },
    async status() {
      if (holding) return current
      if (heard) return heard
      return store ? statusFromSetup(await readSyncSetup(store)) : OFF
    },
    changed() {
      heard = undefined
      if (holding) interrupt()
      options.channel.post({ type: 'changed' })
    },
    now() {
      if (holding) kick()
      else options.channel.post({ type: 'now' })
    },
    hear(event) {
      if (event.type === 'sync.status') {
        if (!holding) heard = event.status
        return
      }
      if (!holding || !isSyncedWrite(event)) return
      // Off and paused sync nothing; offline waits out its backoff and an error waits for the user (Sync now).
      if (current.state !== 'syncing' && current.state !== 'synced') return
      if (debounce !== undefined) clearTimeout(debounce)
      debounce = setTimeout(() => {
        debounce = undefined
        kick()
      }, timing.debounceMs)
    },
    async fetchSession(context, sessionID) {
      const stored = await readStoredSync(context)
      if (!stored) throw new SyncOffError()
      const server = serverFor(stored.setup, stored.password, fetcher)
      const { pulled } = await options.locks.request(ROUND_LOCK, {}, () =>
        replicate({ context: pulling(context), server, key: { key: stored.key, ids: stored.ids }, device: stored.device, scope: { type: 'session', sessionID }, secrets: stored.setup.secrets }),
      )
      return { fetched: pulled }
    },
  }
}
