import { SettingSchema, type Setting, type SettingKey } from '../core/settings'
import { SyncSetupSchema, type SyncSetup } from '../core/sync-state'
import { liveQuery } from 'dexie'
import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { write } from './transaction'

/*
 * What this device keeps to sync (issue 31), in settings rows: the setup, the server's password, the derived key and
 * a device id. Like provider keys and git tokens, settings are never in exports, backups or share links, and only the
 * worker reads the password and the key: the page gets the setup alone (`SyncSetup` has neither).
 */

const SETUP = 'sync.setup' as const
const PASSWORD = 'sync.password' as const
const KEY = 'sync.key' as const
const IDS = 'sync.ids' as const
const DEVICE = 'sync.device' as const
const EXCHANGED = 'sync.exchanged' as const

/** Everything a round needs; `password` only when the user gave one. */
export interface StoredSync {
  setup: SyncSetup
  password?: string
  key: CryptoKey
  /** The id key derived beside `key` (src/sync/crypto.ts `deriveKeys`). */
  ids: CryptoKey
  device: string
}

type Context = Pick<StoreContext, 'db'>

/** The value of one settings row, or undefined when it is missing or no longer parses. */
type ValueByKey = { [S in Setting as S['key']]: S['value'] }

async function valueOf<K extends SettingKey>(context: Context, key: K): Promise<ValueByKey[K] | undefined> {
  const parsed = SettingSchema.safeParse(await context.db.settings.get(key))
  if (!parsed.success || parsed.data.key !== key) return undefined
  const value: unknown = parsed.data.value
  return value as ValueByKey[K]
}

const setupOf = (context: Context) => valueOf(context, SETUP)
const passwordOf = (context: Context) => valueOf(context, PASSWORD)
const deviceOf = (context: Context) => valueOf(context, DEVICE)

/** The setup, or undefined when sync is off. */
export async function readSyncSetup(context: Context): Promise<SyncSetup | undefined> {
  return await setupOf(context)
}

/** The setup with its password and key; undefined when sync is off (or the key is missing, which `enable` prevents). */
export async function readStoredSync(context: Context): Promise<StoredSync | undefined> {
  const [setup, password, key, ids, device] = await Promise.all([setupOf(context), passwordOf(context), valueOf(context, KEY), valueOf(context, IDS), deviceOf(context)])
  if (!setup || !key || !ids || !device) return undefined
  return { setup, key, ids, device, ...(password !== undefined ? { password } : {}) }
}

/** The stored password, for a connection test that left it out for the server already set up. */
export async function readSyncPassword(context: Context): Promise<string | undefined> {
  return await passwordOf(context)
}

/** The server and database a setup names: what `syncDocs` and the checkpoints refer to. */
export function syncTarget(setup: Pick<SyncSetup, 'url' | 'database'>): string {
  return `${setup.url.replace(/\/+$/, '')}/${setup.database}`
}

/**
 * Stores a setup that passed the key check, in one write. A device id is made once and kept. What this device
 * exchanged with another server or database is forgotten: those revisions mean nothing to the new one, and keeping
 * them would make the first push skip rows the new server has never seen.
 */
export async function saveSyncSetup(context: StoreContext, input: { setup: SyncSetup; password?: string; key: CryptoKey; ids: CryptoKey }): Promise<void> {
  const setup = SyncSetupSchema.parse(input.setup)
  const { db } = context
  const target = syncTarget(setup)
  await write(context, [db.settings, db.syncDocs, db.syncMeta], async () => {
    if ((await valueOf(context, EXCHANGED)) !== target) {
      await db.syncDocs.clear()
      await db.syncMeta.clear()
    }
    await db.settings.put({ key: SETUP, value: setup })
    if (input.password !== undefined) await db.settings.put({ key: PASSWORD, value: input.password })
    else await db.settings.delete(PASSWORD)
    await db.settings.put({ key: KEY, value: input.key })
    await db.settings.put({ key: IDS, value: input.ids })
    await db.settings.put({ key: EXCHANGED, value: target })
    if (!(await deviceOf(context))) await db.settings.put({ key: DEVICE, value: `dev_${crypto.randomUUID()}` })
  })
}

/** Pauses or resumes: the flag is part of the setup, so it holds across reloads and every tab reads it. */
export async function setSyncPaused(context: StoreContext, paused: boolean): Promise<SyncSetup | undefined> {
  const { db } = context
  return await write(context, [db.settings], async () => {
    const setup = await setupOf(context)
    if (!setup) return undefined
    const next = { ...setup, paused }
    await db.settings.put({ key: SETUP, value: next })
    return next
  })
}

/**
 * Forgets the setup, the password and the key. Every local row stays, and so does what was exchanged with that
 * server (`syncDocs`, checkpoints): enabling the same server again resumes rather than sending everything again.
 */
export async function forgetSyncSetup(context: StoreContext): Promise<void> {
  const { db } = context
  await write(context, [db.settings], async () => {
    await db.settings.bulkDelete([SETUP, PASSWORD, KEY, IDS])
  })
}

/** Whether this device has pulled from a server before: its first sync shows progress. */
export async function hasSyncCheckpoint(context: Context): Promise<boolean> {
  return (await context.db.syncMeta.count()) > 0
}

/** The stored sync password as it changes (in any tab), for the logger to redact: a secret it must never print. */
export function watchSyncPassword(db: TabcodeDatabase, observer: { next: (secrets: string[]) => void; error: (error: unknown) => void }): { unsubscribe(): void } {
  return liveQuery(() => passwordOf({ db })).subscribe({
    next: (password) => observer.next(password ? [password] : []),
    error: observer.error,
  })
}
