// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSignal } from 'solid-js'
import { render } from 'solid-js/web'
import type { SyncStatus } from '../../core/sync-state'
import { SyncIndicator } from './sync-indicator'
import { syncStatusText } from './sync-status-text'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const status = (patch: Partial<SyncStatus>): SyncStatus => ({ type: 'sync-status', state: 'synced', pending: 0, ...patch })

describe('the sync indicator', () => {
  it('words every state', () => {
    expect(syncStatusText(status({ state: 'off' }))).toBeUndefined()
    expect(syncStatusText(status({ state: 'synced' }))).toBe('Synced')
    expect(syncStatusText(status({ state: 'syncing', pending: 12 }))).toBe('Syncing 12 rows')
    expect(syncStatusText(status({ state: 'syncing', pending: 1 }))).toBe('Syncing 1 row')
    expect(syncStatusText(status({ state: 'syncing', pending: 30, progress: { done: 10, total: 40 } }))).toBe('First sync: 10 of 40 rows')
    expect(syncStatusText(status({ state: 'offline', pending: 3 }))).toBe('Offline')
    expect(syncStatusText(status({ state: 'paused' }))).toBe('Paused')
    expect(syncStatusText(status({ state: 'error', error: { name: 'SyncServerError', message: 'The server refused', fix: 'x' } }))).toBe(
      'Sync error: The server refused',
    )
  })

  it('is absent while sync is off, a labelled status otherwise, with progress through a first sync and the way to a fix', () => {
    const [current, setCurrent] = createSignal<SyncStatus | undefined>(status({ state: 'off' }))
    const onShowSettings = vi.fn()
    const root = document.createElement('div')
    document.body.append(root)
    const dispose = render(() => <SyncIndicator status={current()} onShowSettings={onShowSettings} />, root)
    cleanups.push(() => {
      dispose()
      root.remove()
    })
    expect(root.innerHTML).toBe('')
    setCurrent(status({ state: 'syncing', pending: 30, progress: { done: 10, total: 40 } }))
    const line = root.querySelector('[role="status"]')!
    expect(line.getAttribute('aria-label')).toBe('Sync')
    expect(line.textContent).toBe('First sync: 10 of 40 rows')
    const bar = root.querySelector('[role="progressbar"]')!
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemax')]).toEqual(['10', '40'])
    setCurrent(status({ state: 'error', error: { name: 'SyncServerError', message: 'The server refused', fix: 'x' } }))
    expect(root.querySelector('[role="progressbar"]')).toBeNull()
    root.querySelector('button')!.click()
    expect(onShowSettings).toHaveBeenCalled()
    setCurrent(status({ state: 'off' }))
    expect(root.innerHTML).toBe('')
  })
})
