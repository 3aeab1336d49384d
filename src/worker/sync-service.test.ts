import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SessionEvent } from '../core/event'
import type { Handlers } from '../core/protocol/base'
import type { SyncApi } from '../core/protocol/sync'
import type { SyncStatus } from '../core/sync-state'
import { fromWire, toWire } from '../core/wire'
import { exportBackup, exportSession } from '../share/export'
import type { StoreContext } from '../store/context'
import { TabcodeDatabase } from '../store/database'
import { openDatabase } from '../store/open-database'
import { ensureDefaultProject } from '../store/project-store'
import { createSession, setTitle } from '../store/session-store'
import { saveSyncSetup } from '../store/sync-setup-store'
import { countOutbox } from '../store/sync-rows'
import { SyncPassphraseError } from '../sync/crypto'
import { startCouchServer, type CouchServer } from '../sync/testing/couch-server'
import { makeTestContext } from '../testing/test-context'
import { makeLocalLocks, type Locks } from './locks'
import { createService } from './service'
import { syncHandlers } from './sync-handlers'
import { createSyncService, type SyncChannel, type SyncMessage, type SyncNetwork, type SyncService, type SyncTiming } from './sync-service'

// Devices are fake-IndexedDB databases, each with one or more tabs (a sync service and its handlers, as each tab's
// worker has); the server is a real CouchDB-protocol one (PouchDB Server, one per test file).
let server: CouchServer
beforeAll(async () => {
  server = await startCouchServer()
}, 30_000)
afterAll(async () => {
  await server?.stop()
})

const PASSPHRASE = 'orange kettle under the stairs'
const FAST: SyncTiming = { debounceMs: 50, firstRetryMs: 100, longestRetryMs: 400, longpollMs: 2_000, offlineCheckMs: 200 }
const ORIGIN = 'http://tabcode.test'

interface Tab {
  api: Handlers<SyncApi>
  sync: SyncService
  context: StoreContext
  /** Every request this tab's worker sent, as `METHOD url`, and the signal it went with. */
  requests: Array<{ method: string; url: string; signal?: AbortSignal | null }>
  /** While true, the server cannot be reached from this tab (as a browser's failed fetch). */
  down: boolean
  /** Requests it names hang until their signal aborts them (a slow server mid-round). */
  hang?: (url: string) => boolean
}

/** One browser profile: its database, the lock and channel its tabs share, and the tabs. */
interface Device {
  context: StoreContext
  locks: Locks
  tabs: Tab[]
  listeners: Array<{ tab: Tab; listener: (message: SyncMessage) => void }>
  projectID: string
}

const running: Tab[] = []
afterEach(() => {
  for (const tab of running.splice(0)) tab.sync.stop()
})

async function device(): Promise<Device> {
  const { context } = makeTestContext()
  const project = await ensureDefaultProject(context)
  return { context, locks: makeLocalLocks(), tabs: [], listeners: [], projectID: project.id }
}

/** A tab on `on`: its own worker's sync service, the device's lock, a channel to the device's other tabs. */
function openTab(on: Device, options: { timing?: Partial<SyncTiming>; network?: SyncNetwork } = {}): Tab {
  const tab = { requests: [], down: false } as unknown as Tab
  const recording: typeof fetch = async (input, init) => {
    tab.requests.push({ method: init?.method ?? 'GET', url: String(input), signal: init?.signal })
    if (tab.down) throw new TypeError('Failed to fetch')
    if (tab.hang?.(String(input))) {
      const signal = init?.signal
      await new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError'))))
    }
    return await fetch(input, init)
  }
  const channel: SyncChannel = {
    // Like a BroadcastChannel: every other tab of the profile, later.
    post: (message) => setTimeout(() => on.listeners.filter((entry) => entry.tab !== tab).forEach((entry) => entry.listener(message))),
    listen: (listener) => void on.listeners.push({ tab, listener }),
  }
  tab.sync = createSyncService({
    locks: on.locks,
    channel,
    network: options.network ?? { online: () => true, onChange: () => {} },
    fetch: recording,
    timing: { ...FAST, ...options.timing },
  })
  // Each tab's events reach every tab of the profile (its own worker directly, the others through the event channel).
  tab.context = { ...on.context, emit: (event: SessionEvent) => on.tabs.forEach((each) => each.sync.hear(event)) }
  tab.api = syncHandlers({ ready: () => tab.context, sync: tab.sync, origin: () => ORIGIN, fetch: recording })
  on.tabs.push(tab)
  running.push(tab)
  tab.sync.start(tab.context)
  return tab
}

function newDatabaseName() {
  return `sync-${crypto.randomUUID()}`
}

function setupInput(database: string, passphrase = PASSPHRASE) {
  return { url: server.url, database, passphrase, secrets: false, messages: 'all' as const }
}

async function statusBecomes(tab: Tab, check: (status: SyncStatus) => boolean, timeout = 20_000): Promise<SyncStatus> {
  return await vi.waitFor(
    async () => {
      const status = await tab.api.syncStatus()
      if (!check(status)) throw new Error(`sync status is ${JSON.stringify(status)}`)
      return status
    },
    { timeout, interval: 25 },
  )
}

const synced = (status: SyncStatus) => status.state === 'synced'

async function serverDocuments(database: string): Promise<Array<{ id: string; rev: string }>> {
  const body = (await (await fetch(`${server.url}/${database}/_all_docs`)).json()) as { rows: Array<{ id: string; value: { rev: string } }> }
  return body.rows.map((row) => ({ id: row.id, rev: row.value.rev }))
}

async function newSession(tab: Tab, projectID: string, title: string) {
  const session = await createSession(tab.context, { projectID })
  await setTitle(tab.context, session.id, title)
  return session
}

async function sessionArrives(on: Device, sessionID: string, title: string, timeout = 15_000) {
  await vi.waitFor(
    async () => {
      expect((await on.context.db.sessions.get(sessionID))?.title).toBe(title)
    },
    { timeout, interval: 25 },
  )
}

const syncRows = async (context: StoreContext) => (await context.db.settings.toArray()).filter((row) => row.key.startsWith('sync.') && row.key !== 'sync.device').map((row) => row.key)

// First in the file: no other test's service is running yet, whose last requests could reach the global fetch.
describe('the worker without a sync setup', () => {
  it('contacts no server, however much is written', { timeout: 30_000 }, async () => {
    const fetcher = vi.fn<typeof fetch>()
    const global = vi.spyOn(globalThis, 'fetch')
    const events: SessionEvent[] = []
    const service = createService({
      open: () => openDatabase(() => new TabcodeDatabase(`sync-off-${crypto.randomUUID()}`)),
      emit: (event) => events.push(event),
      version: '1',
      fetch: fetcher,
      syncTiming: FAST,
    })
    const api = fromWire(toWire(service) as never)
    const started = await api.start()
    if (started.status !== 'ready') throw new Error('expected ready')
    expect(await api.syncStatus()).toEqual({ type: 'sync-status', state: 'off', pending: 0 })
    const session = await api.createSession({})
    await api.renameSession(session.id, 'Never leaves this browser')
    expect(await api.syncNow()).toMatchObject({ state: 'off' })
    // Several times the wait after which a write would start a round.
    await new Promise((resolve) => setTimeout(resolve, FAST.debounceMs * 6))
    expect(fetcher).not.toHaveBeenCalled()
    expect(global).not.toHaveBeenCalled()
    expect(events.filter((event) => event.type === 'sync.status')).toEqual([])
    global.mockRestore()
  })
})

describe('the sync service between two devices', () => {
  it('tests the connection, creates the database, and brings a session written on one device to the other within seconds, both ways', { timeout: 90_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const desktop = await device()
    const onLaptop = openTab(laptop)
    const onDesktop = openTab(desktop)

    expect(await onLaptop.api.testSyncConnection({ url: server.url, database })).toEqual({ type: 'missing', mayCreate: true })
    expect(await onLaptop.api.createSyncDatabase({ url: server.url, database })).toEqual({ type: 'ready' })
    expect(await onLaptop.api.enableSync(setupInput(database))).toMatchObject({ state: 'syncing' })
    await statusBecomes(onLaptop, synced)
    await onDesktop.api.enableSync(setupInput(database))
    await statusBecomes(onDesktop, synced)

    const session = await newSession(onLaptop, laptop.projectID, 'Ledger migration')
    await sessionArrives(desktop, session.id, 'Ledger migration')
    // The desktop heard it through its long poll on the server's changes feed, not by being asked.
    expect(onDesktop.requests.some((request) => request.url.includes('feed=longpoll'))).toBe(true)

    await setTitle(onDesktop.context, session.id, 'Ledger migration, renamed on the desktop')
    await sessionArrives(laptop, session.id, 'Ledger migration, renamed on the desktop')
    const status = await statusBecomes(onLaptop, synced)
    expect(status).toMatchObject({ pending: 0, setup: { url: server.url, database, paused: false } })
    expect(status.lastSynced).toBeTypeOf('number')
  })

  it('refuses a wrong passphrase and stores and sends nothing', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const onLaptop = openTab(laptop)
    await onLaptop.api.createSyncDatabase({ url: server.url, database })
    await newSession(onLaptop, laptop.projectID, 'Only on the laptop')
    await onLaptop.api.enableSync(setupInput(database))
    await statusBecomes(onLaptop, synced)
    const before = await serverDocuments(database)

    const phone = await device()
    const onPhone = openTab(phone)
    await newSession(onPhone, phone.projectID, 'Only on the phone')
    await expect(onPhone.api.enableSync(setupInput(database, 'orange kettle under the stair'))).rejects.toSatisfy((error) => SyncPassphraseError.isInstance(error))
    const sent = onPhone.requests.length
    expect(await syncRows(phone.context)).toEqual([])
    expect(await phone.context.db.syncDocs.count()).toBe(0)
    expect(await onPhone.api.syncStatus()).toMatchObject({ state: 'off' })
    expect(await serverDocuments(database)).toEqual(before)
    // Its write after the refusal starts no round: nothing is set up.
    await newSession(onPhone, phone.projectID, 'Still only on the phone')
    await onPhone.api.syncNow()
    expect(onPhone.requests.length).toBe(sent)
    expect((await phone.context.db.sessions.toArray()).map((session) => session.title).sort()).toEqual(['Only on the phone', 'Still only on the phone'])
  })

  it('resumes after a reload without the passphrase, from its checkpoint, sending nothing twice', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const first = openTab(laptop)
    await first.api.createSyncDatabase({ url: server.url, database })
    for (let index = 0; index < 3; index += 1) await newSession(first, laptop.projectID, `Session ${index}`)
    await first.api.enableSync(setupInput(database))
    await statusBecomes(first, synced)
    const before = await serverDocuments(database)
    // The key is stored as the CryptoKey itself (IndexedDB's structured clone keeps it; the passphrase is not kept).
    expect((await laptop.context.db.settings.get('sync.key'))?.value).toBeInstanceOf(CryptoKey)

    // The reload: the tab's worker goes away and a new one starts on the same database, asking nothing.
    first.sync.stop()
    laptop.tabs.splice(0)
    const reloaded = openTab(laptop)
    await statusBecomes(reloaded, synced)
    const pulls = reloaded.requests.filter((request) => request.url.includes('/_changes?') && !request.url.includes('feed=longpoll'))
    expect(pulls.length).toBeGreaterThan(0)
    expect(new URL(pulls[0]!.url).searchParams.get('since')).not.toBe('0')
    expect(reloaded.requests.filter((request) => request.url.endsWith('/_bulk_docs') || request.url.includes('/_bulk_get'))).toEqual([])
    expect(await serverDocuments(database)).toEqual(before)

    // It still seals with the stored key: a new session goes out, once.
    const session = await newSession(reloaded, laptop.projectID, 'After the reload')
    await vi.waitFor(async () => expect((await serverDocuments(database)).map((document) => document.id)).toContain(session.id), { timeout: 15_000, interval: 25 })
    expect((await serverDocuments(database)).length).toBe(before.length + 1)
  })

  it('syncs in one tab only; another tab pauses it (aborting the wait in flight), and its resume continues', { timeout: 90_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const syncing = openTab(laptop)
    const other = openTab(laptop)
    const desktop = await device()
    const onDesktop = openTab(desktop)
    await other.api.createSyncDatabase({ url: server.url, database })
    // Set up from the tab that does not hold the lock: the one that does starts syncing.
    await other.api.enableSync(setupInput(database))
    const setUp = other.requests.length
    await statusBecomes(other, synced)
    await onDesktop.api.enableSync(setupInput(database))
    await statusBecomes(onDesktop, synced)
    await vi.waitFor(() => expect(syncing.requests.some((request) => request.url.includes('feed=longpoll'))).toBe(true), { timeout: 10_000, interval: 25 })

    expect(await other.api.pauseSync()).toMatchObject({ state: 'paused' })
    await statusBecomes(syncing, (status) => status.state === 'paused')
    await statusBecomes(other, (status) => status.state === 'paused')
    // The long poll that was waiting on the server was aborted, not left to run.
    const polls = syncing.requests.filter((request) => request.url.includes('feed=longpoll'))
    expect(polls.at(-1)!.signal?.aborted).toBe(true)
    const whilePaused = syncing.requests.length

    const session = await newSession(onDesktop, desktop.projectID, 'Written while the laptop paused')
    await vi.waitFor(async () => expect((await serverDocuments(database)).map((document) => document.id)).toContain(session.id), { timeout: 15_000, interval: 25 })
    // Longer than the desktop's change takes to reach a listening laptop in the test above.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(await laptop.context.db.sessions.get(session.id)).toBeUndefined()
    expect(syncing.requests.length).toBe(whilePaused)

    // Paused survives a reload: it is part of the stored setup.
    expect((await laptop.context.db.settings.get('sync.setup'))?.value).toMatchObject({ paused: true })

    await other.api.resumeSync()
    await sessionArrives(laptop, session.id, 'Written while the laptop paused')
    // The other tab never talked to the server after setting sync up.
    expect(other.requests.length).toBe(setUp)
  })

  it('aborts the round in flight when paused, and sends it once resumed', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const onLaptop = openTab(laptop)
    await onLaptop.api.createSyncDatabase({ url: server.url, database })
    await onLaptop.api.enableSync(setupInput(database))
    await statusBecomes(onLaptop, synced)

    // The first `_revs_diff` from now on is the one that hangs: earlier rounds' ones had finished.
    const earlier = onLaptop.requests.length
    const hung = () => onLaptop.requests.slice(earlier).find((request) => request.url.endsWith('/_revs_diff'))
    onLaptop.hang = (url) => url.endsWith('/_revs_diff')
    const session = await newSession(onLaptop, laptop.projectID, 'Paused mid-push')
    await vi.waitFor(() => expect(hung()).toBeDefined(), { timeout: 10_000, interval: 25 })
    await onLaptop.api.pauseSync()
    await statusBecomes(onLaptop, (status) => status.state === 'paused')
    expect(hung()!.signal?.aborted).toBe(true)
    expect((await serverDocuments(database)).map((document) => document.id)).not.toContain(session.id)

    onLaptop.hang = undefined
    await onLaptop.api.resumeSync()
    await vi.waitFor(async () => expect((await serverDocuments(database)).map((document) => document.id)).toContain(session.id), { timeout: 15_000, interval: 25 })
  })

  it('goes offline when the server cannot be reached, retries with backoff, and recovers by itself', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const onLaptop = openTab(laptop)
    await onLaptop.api.createSyncDatabase({ url: server.url, database })
    await onLaptop.api.enableSync(setupInput(database))
    await statusBecomes(onLaptop, synced)

    onLaptop.down = true
    const session = await newSession(onLaptop, laptop.projectID, 'Written with the server down')
    await statusBecomes(onLaptop, (status) => status.state === 'offline')
    // Retried, with growing waits (100, 200, 400 ms here).
    await vi.waitFor(() => expect(onLaptop.requests.filter((request) => request.url.endsWith(`/${database}`)).length).toBeGreaterThan(4), { timeout: 10_000, interval: 25 })

    onLaptop.down = false
    await statusBecomes(onLaptop, synced)
    expect((await serverDocuments(database)).map((document) => document.id)).toContain(session.id)
  })

  it('comes back online by itself where the worker hears no online event', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    let online = true
    const changes: Array<() => void> = []
    // As in a dedicated worker: `navigator.onLine` changes, no event says so when it comes back.
    const network: SyncNetwork = { online: () => online, onChange: (listener) => void changes.push(listener) }
    const onLaptop = openTab(laptop, { network })
    await onLaptop.api.createSyncDatabase({ url: server.url, database })
    await onLaptop.api.enableSync(setupInput(database))
    await statusBecomes(onLaptop, synced)
    online = false
    for (const listener of changes) listener()
    await statusBecomes(onLaptop, (status) => status.state === 'offline')
    const session = await newSession(onLaptop, laptop.projectID, 'Written offline')
    online = true
    await statusBecomes(onLaptop, synced)
    await vi.waitFor(async () => expect((await serverDocuments(database)).map((document) => document.id)).toContain(session.id), { timeout: 15_000, interval: 25 })
  })

  it('goes offline with the browser, and Sync now from another tab skips the backoff', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    let online = true
    const changes: Array<() => void> = []
    const network: SyncNetwork = { online: () => online, onChange: (listener) => void changes.push(listener) }
    // A minute between retries: only Sync now brings it back within the test.
    const syncing = openTab(laptop, { network, timing: { firstRetryMs: 60_000, longestRetryMs: 60_000 } })
    const other = openTab(laptop, { network })
    await other.api.createSyncDatabase({ url: server.url, database })
    await other.api.enableSync(setupInput(database))
    await statusBecomes(syncing, synced)

    online = false
    for (const listener of changes) listener()
    await statusBecomes(other, (status) => status.state === 'offline')
    online = true
    for (const listener of changes) listener()
    await statusBecomes(other, synced)

    syncing.down = true
    await newSession(syncing, laptop.projectID, 'Waiting out a backoff')
    await statusBecomes(other, (status) => status.state === 'offline')
    syncing.down = false
    await other.api.syncNow()
    await statusBecomes(other, synced, 10_000)
  })

  it('stops with the fix when the database is deleted, and when it is set up again with another passphrase', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const onLaptop = openTab(laptop)
    await onLaptop.api.createSyncDatabase({ url: server.url, database })
    await onLaptop.api.enableSync(setupInput(database))
    await statusBecomes(onLaptop, synced)
    // Deleted while the laptop is paused: PouchDB Server (unlike CouchDB) brings a database back, empty, for a changes
    // feed still listening on it.
    await onLaptop.api.pauseSync()
    await statusBecomes(onLaptop, (status) => status.state === 'paused')
    await fetch(`${server.url}/${database}`, { method: 'DELETE' })
    await onLaptop.api.resumeSync()
    const written = await newSession(onLaptop, laptop.projectID, 'Written after the database went')
    const gone = await statusBecomes(onLaptop, (status) => status.state === 'error')
    expect(gone.error).toMatchObject({ name: 'SyncServerError', fix: expect.stringMatching(/database is gone/) })

    // Someone sets the database up again from another device, with another passphrase.
    const desktop = await device()
    const onDesktop = openTab(desktop)
    await onDesktop.api.createSyncDatabase({ url: server.url, database })
    await onDesktop.api.enableSync(setupInput(database, 'a different passphrase entirely'))
    await statusBecomes(onDesktop, synced)
    await onLaptop.api.syncNow()
    const changed = await statusBecomes(onLaptop, (status) => status.state === 'error' && status.error?.name === 'SyncPassphraseError')
    expect(changed.error?.fix).toMatch(/passphrase was changed/)
    // Nothing of the laptop's went to the database it can no longer open (the desktop's own project did).
    const stored = (await serverDocuments(database)).map((document) => document.id)
    expect(stored).toContain('tabcode:keycheck')
    expect(stored).not.toContain(laptop.projectID)
    expect(stored.some((id) => id.includes(written.id))).toBe(false)
  })

  it('forgets the setup, the password and the key when turned off, and keeps every local row', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const onLaptop = openTab(laptop)
    await onLaptop.api.createSyncDatabase({ url: server.url, database })
    const session = await newSession(onLaptop, laptop.projectID, 'Kept here')
    await onLaptop.api.enableSync(setupInput(database))
    await statusBecomes(onLaptop, synced)

    expect(await onLaptop.api.disableSync()).toMatchObject({ state: 'off' })
    await statusBecomes(onLaptop, (status) => status.state === 'off')
    // Which server this device's exchanged revisions refer to stays, so turning the same server on again resumes.
    expect(await syncRows(laptop.context)).toEqual(['sync.exchanged'])
    expect((await laptop.context.db.sessions.get(session.id))?.title).toBe('Kept here')
    const sent = onLaptop.requests.length
    await newSession(onLaptop, laptop.projectID, 'Written after turning sync off')
    await onLaptop.api.syncNow()
    expect(onLaptop.requests.length).toBe(sent)
    // Nor does a write record itself for a later push while sync is off.
    expect(await countOutbox(laptop.context)).toBe(0)
  })
})

describe('a device that takes messages on demand', () => {
  it('fetches one session when asked, and refuses without a setup', { timeout: 60_000 }, async () => {
    const database = newDatabaseName()
    const laptop = await device()
    const onLaptop = openTab(laptop)
    await onLaptop.api.createSyncDatabase({ url: server.url, database })
    const session = await newSession(onLaptop, laptop.projectID, 'Opened on the phone')
    await onLaptop.api.enableSync(setupInput(database))
    await statusBecomes(onLaptop, synced)

    const phone = await device()
    const onPhone = openTab(phone)
    await expect(onPhone.api.fetchSyncedSession({ sessionID: session.id })).rejects.toMatchObject({ name: 'SyncOffError' })
    expect(await onPhone.api.enableSync({ ...setupInput(database), messages: 'on-demand' })).toMatchObject({ setup: { messages: 'on-demand' } })
    expect(await onPhone.api.fetchSyncedSession({ sessionID: session.id })).toEqual({ fetched: expect.any(Number) })
    await sessionArrives(phone, session.id, 'Opened on the phone')
  })
})

describe("the sync server's password", () => {
  it('is never handed to the page, nor in a backup or an exported session', async () => {
    const { context } = makeTestContext()
    const project = await ensureDefaultProject(context)
    const session = await createSession(context, { projectID: project.id })
    const password = 'couch-password-0123456789'
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    const ids = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign'])
    await saveSyncSetup(context, { setup: { type: 'sync-setup', url: 'https://couch.example', database: 'tabcode', username: 'me', secrets: false, messages: 'all', paused: false }, password, key, ids })
    const sync = createSyncService({ locks: makeLocalLocks(), channel: { post: () => {}, listen: () => {} }, network: { online: () => false, onChange: () => {} } })
    const api = syncHandlers({ ready: () => context, sync, origin: () => ORIGIN })
    expect(JSON.stringify(await api.syncStatus())).not.toContain(password)
    expect(JSON.stringify((await exportBackup(context)).document)).not.toContain(password)
    expect(JSON.stringify((await exportSession(context, session.id)).document)).not.toContain(password)
    expect((await context.db.settings.get('sync.password'))?.value).toBe(password)
  })
})
