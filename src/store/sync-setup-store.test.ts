import { describe, expect, it } from 'vitest'
import type { SyncSetup } from '../core/sync-state'
import { makeTestContext } from '../testing/test-context'
import { forgetSyncSetup, readStoredSync, readSyncSetup, saveSyncSetup, setSyncPaused } from './sync-setup-store'

const setup = (database: string): SyncSetup => ({ type: 'sync-setup', url: 'https://couch.example', database, username: 'me', secrets: false, messages: 'all', paused: false })
const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
const newIds = () => crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign'])

describe("sync's stored setup", () => {
  it('keeps the key as a CryptoKey that still works, one device id for good, and the pause across reads', async () => {
    const { context } = makeTestContext()
    const key = await newKey()
    await saveSyncSetup(context, { setup: setup('tabcode'), password: 'secret', key, ids: await newIds() })
    const stored = await readStoredSync(context)
    expect(stored).toMatchObject({ setup: setup('tabcode'), password: 'secret', device: expect.stringMatching(/^dev_/) })
    // The clone IndexedDB kept still seals: a reload needs no passphrase.
    const iv = crypto.getRandomValues(new Uint8Array(12))
    await expect(crypto.subtle.encrypt({ name: 'AES-GCM', iv }, stored!.key, new Uint8Array([1]))).resolves.toBeInstanceOf(ArrayBuffer)

    await setSyncPaused(context, true)
    expect(await readSyncSetup(context)).toMatchObject({ paused: true })
    await saveSyncSetup(context, { setup: setup('tabcode'), key: await newKey(), ids: await newIds() })
    const again = await readStoredSync(context)
    expect(again?.device).toBe(stored!.device)
    // Saved without a password: none is kept from before.
    expect(again?.password).toBeUndefined()
  })

  it('forgets what was exchanged with another database when set up with a new one, and keeps it when turned off', async () => {
    const { context } = makeTestContext()
    await saveSyncSetup(context, { setup: setup('first'), key: await newKey(), ids: await newIds() })
    await context.db.syncDocs.put({ type: 'synced', id: 'ses_1', kind: 'session', rev: '1-abc', digest: 'abc' })
    await context.db.syncMeta.put({ type: 'checkpoint', key: 'tabcode-1', since: '7' })

    await forgetSyncSetup(context)
    expect(await readStoredSync(context)).toBeUndefined()
    expect(await context.db.syncDocs.count()).toBe(1)
    await saveSyncSetup(context, { setup: setup('first'), key: await newKey(), ids: await newIds() })
    expect(await context.db.syncDocs.count()).toBe(1)
    expect(await context.db.syncMeta.count()).toBe(1)

    await saveSyncSetup(context, { setup: setup('second'), key: await newKey(), ids: await newIds() })
    expect(await context.db.syncDocs.count()).toBe(0)
    expect(await context.db.syncMeta.count()).toBe(0)
  })
})
