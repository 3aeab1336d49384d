// @vitest-environment happy-dom
import { createRoot } from 'solid-js'
import { describe, expect, it, vi } from 'vitest'
import type { SessionEvent } from '../../core/event'
import type { SyncStatus } from '../../core/sync-state'
import { createSyncStatus, fetchesOnDemand } from './create-sync-status'

const status = (patch: Partial<SyncStatus>): SyncStatus => ({ type: 'sync-status', state: 'synced', pending: 0, ...patch })

function start(first: Promise<SyncStatus>, syncNow = vi.fn(async () => status({ state: 'syncing' }))) {
  const handlers = new Set<(event: SessionEvent) => void>()
  const store = createRoot(() =>
    createSyncStatus({ syncStatus: () => first, syncNow }, (handler) => {
      handlers.add(handler)
      return () => handlers.delete(handler)
    }),
  )
  return { store, emit: (event: SessionEvent) => handlers.forEach((handler) => handler(event)) }
}

describe('createSyncStatus', () => {
  it('reads the status once, then follows sync.status events', async () => {
    const { store, emit } = start(Promise.resolve(status({ state: 'off' })))
    expect(await store.ready).toEqual(status({ state: 'off' }))
    emit({ type: 'sync.status', status: status({ state: 'syncing', pending: 4 }) })
    expect(store.status()).toEqual(status({ state: 'syncing', pending: 4 }))
  })

  it('keeps an event that came before the first read answered: it is newer', async () => {
    let answer!: (value: SyncStatus) => void
    const { store, emit } = start(new Promise((done) => (answer = done)))
    emit({ type: 'sync.status', status: status({ state: 'paused' }) })
    answer(status({ state: 'synced' }))
    await new Promise((done) => setTimeout(done, 0))
    expect(store.status()?.state).toBe('paused')
  })

  it('answers "off" to whoever waits when the status cannot be read, and still follows events', async () => {
    const { store, emit } = start(Promise.reject(new Error('no worker')))
    expect((await store.ready).state).toBe('off')
    expect(store.status()).toBeUndefined()
    emit({ type: 'sync.status', status: status({ state: 'synced' }) })
    expect(store.status()?.state).toBe('synced')
  })

  it('asks for a round when the page comes back online while sync is offline, and only then', async () => {
    const syncNow = vi.fn(async () => status({ state: 'syncing', pending: 2 }))
    const { store, emit } = start(Promise.resolve(status({ state: 'synced' })), syncNow)
    await store.ready
    window.dispatchEvent(new Event('online'))
    expect(syncNow).not.toHaveBeenCalled()
    emit({ type: 'sync.status', status: status({ state: 'offline' }) })
    window.dispatchEvent(new Event('online'))
    expect(syncNow).toHaveBeenCalledTimes(1)
    await vi.waitFor(() => expect(store.status()?.state).toBe('syncing'))
  })

  it('fetches on demand only while sync is set up that way', () => {
    const setup = { type: 'sync-setup' as const, url: 'https://couch.example.org', database: 'd', secrets: false, paused: false }
    expect(fetchesOnDemand(status({ setup: { ...setup, messages: 'on-demand' } }))).toBe(true)
    expect(fetchesOnDemand(status({ setup: { ...setup, messages: 'all' } }))).toBe(false)
    expect(fetchesOnDemand(status({ state: 'off' }))).toBe(false)
  })
})
