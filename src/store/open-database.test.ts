import { describe, expect, it, vi } from 'vitest'
import { TabcodeDatabase } from './database'
import { openDatabase } from './open-database'

function rawOpen(name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

describe('opening the database', () => {
  it('opens a fresh database', async () => {
    const result = await openDatabase(() => new TabcodeDatabase(`open-${crypto.randomUUID()}`))
    expect(result.status).toBe('open')
    if (result.status === 'open') result.db.close()
  })

  it('says when the data was written by a newer version, and changes nothing', async () => {
    const name = `newer-${crypto.randomUUID()}`
    // Dexie stores version n as IndexedDB version n * 10; 990 is far beyond anything this build knows.
    const future = await rawOpen(name, 990)
    future.close()
    const result = await openDatabase(() => new TabcodeDatabase(name))
    expect(result).toMatchObject({ status: 'failed', problem: { type: 'newer-version' } })
    const after = await rawOpen(name, 990)
    expect(after.version).toBe(990)
    after.close()
  })

  it('waits as long as the browser works on the open (a slow recovery after a crash), and opens', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let slowOpen: () => void = () => {}
      const slow = new Promise<void>((resolve) => (slowOpen = resolve))
      const db = new TabcodeDatabase(`slow-${crypto.randomUUID()}`)
      const open = db.open.bind(db)
      db.open = (async () => {
        await slow
        return open()
      }) as typeof db.open
      let settled = false
      const result = openDatabase(() => db).finally(() => (settled = true))
      // A minute, far past the five seconds the open was once given: still waiting, not failed.
      await vi.advanceTimersByTimeAsync(60_000)
      expect(settled).toBe(false)
      slowOpen()
      expect(await result).toMatchObject({ status: 'open' })
      db.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('says another tab blocks the upgrade when an old connection never lets go', async () => {
    const name = `blocked-${crypto.randomUUID()}`
    const old = await rawOpen(name, 1)
    old.onversionchange = () => {
      // A stale tab that ignores versionchange keeps the upgrade waiting.
    }
    const result = await openDatabase(() => new TabcodeDatabase(name), 300)
    expect(result).toMatchObject({ status: 'failed', problem: { type: 'blocked' } })
    old.close()
  })

  it('reports any other failure as unreadable storage with the cause', async () => {
    const result = await openDatabase(() => {
      const db = new TabcodeDatabase(`broken-${crypto.randomUUID()}`)
      db.open = () => Promise.reject(Object.assign(new Error('backing store failed'), { name: 'UnknownError' })) as never
      return db
    })
    expect(result).toMatchObject({
      status: 'failed',
      problem: { type: 'corrupt', detail: expect.stringContaining('backing store failed') },
    })
  })
})
