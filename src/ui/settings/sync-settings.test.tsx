// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSignal } from 'solid-js'
import { render } from 'solid-js/web'
import type { SyncConnectionReport } from '../../core/protocol'
import type { SyncSetup, SyncStatus } from '../../core/sync-state'
import { AppError } from '../../core/errors'
import { SyncSettings, type SyncSettingsApi } from './sync-settings'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const off: SyncStatus = { type: 'sync-status', state: 'off', pending: 0 }
const setup: SyncSetup = {
  type: 'sync-setup',
  url: 'https://couch.example.org',
  database: 'notes',
  username: 'ada',
  secrets: false,
  messages: 'on-demand',
  paused: false,
}
const synced: SyncStatus = { type: 'sync-status', state: 'synced', setup, pending: 0, lastSynced: 1 }

function fakeApi(reports: SyncConnectionReport[] = [{ type: 'ready' }]) {
  const api = {
    testSyncConnection: vi.fn(async () => reports.shift() ?? { type: 'ready' as const }),
    createSyncDatabase: vi.fn(async (): Promise<SyncConnectionReport> => ({ type: 'ready' })),
    enableSync: vi.fn(async (): Promise<SyncStatus> => ({ ...synced, state: 'syncing', pending: 3 })),
    disableSync: vi.fn(async (): Promise<SyncStatus> => off),
    pauseSync: vi.fn(async (): Promise<SyncStatus> => ({ ...synced, state: 'paused' })),
    resumeSync: vi.fn(async (): Promise<SyncStatus> => synced),
    syncNow: vi.fn(async (): Promise<SyncStatus> => synced),
  } satisfies SyncSettingsApi
  return api
}

function mount(api: SyncSettingsApi, initial: SyncStatus) {
  const [status, setStatus] = createSignal<SyncStatus | undefined>(initial)
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(() => <SyncSettings api={api} status={status} onStatus={setStatus} />, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  return { root: container, status, setStatus }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function field(root: HTMLElement, label: string): HTMLInputElement {
  const found = [...root.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === label)
  const input = found?.htmlFor ? root.ownerDocument.getElementById(found.htmlFor) : found?.querySelector('input')
  if (!(input instanceof HTMLInputElement)) throw new Error(`no field ${label}`)
  return input
}

function type(input: HTMLInputElement, value: string) {
  input.value = value
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

function button(root: HTMLElement, name: string): HTMLButtonElement {
  const found = [...root.ownerDocument.querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === name)
  if (!found) throw new Error(`no button ${name}`)
  return found
}

const submit = (root: HTMLElement) => root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))

describe('Settings → Sync', () => {
  it('contacts nothing until asked, then says what the test found, with Create database when the credentials may', async () => {
    const api = fakeApi([{ type: 'missing', mayCreate: true }])
    const { root } = mount(api, off)
    type(field(root, 'Server URL'), 'https://couch.example.org')
    type(field(root, 'Username'), 'ada')
    type(field(root, 'Password'), 'secret')
    for (const call of Object.values(api)) expect(call).not.toHaveBeenCalled()
    button(root, 'Test connection').click()
    await vi.waitFor(() => expect(root.querySelector('[role="status"]')?.textContent).toContain('The database tabcode does not exist yet'))
    expect(api.testSyncConnection).toHaveBeenCalledWith({ url: 'https://couch.example.org', database: 'tabcode', username: 'ada', password: 'secret' })
    button(root, 'Create database').click()
    await vi.waitFor(() => expect(root.querySelector('[role="status"]')?.textContent).toContain('the database tabcode is there'))
    expect(api.createSyncDatabase).toHaveBeenCalledTimes(1)
  })

  it('names the fix for each failed test: the admin for a database it may not create, CORS for an unreachable server', async () => {
    const api = fakeApi([
      { type: 'missing', mayCreate: false },
      { type: 'unreachable', detail: 'Failed to fetch', fix: 'Add this origin to [cors] origins.' },
      { type: 'unauthorised', detail: '401' },
    ])
    const { root } = mount(api, off)
    type(field(root, 'Server URL'), 'https://couch.example.org')
    const alert = () => root.querySelector('[role="alert"]')?.textContent ?? ''
    button(root, 'Test connection').click()
    await vi.waitFor(() => expect(alert()).toContain("Ask the server's admin to create it"))
    expect(root.textContent).not.toContain('Create database')
    button(root, 'Test connection').click()
    await vi.waitFor(() => expect(alert()).toContain('(Failed to fetch). Add this origin to [cors] origins.'))
    button(root, 'Test connection').click()
    await vi.waitFor(() => expect(alert()).toContain('refused these credentials (401)'))
  })

  it('turns sync on with the passphrase and choices; a wrong passphrase is an alert and nothing else changes', async () => {
    const api = fakeApi()
    api.enableSync.mockRejectedValueOnce(new AppError('SyncPassphraseError', 'The passphrase does not open this sync database.', {}))
    const { root, status } = mount(api, off)
    type(field(root, 'Server URL'), 'https://couch.example.org')
    type(field(root, 'Sync passphrase'), 'wrong horse')
    field(root, 'Also sync provider keys and MCP tokens').click()
    field(root, 'When a session is opened').click()
    submit(root)
    await vi.waitFor(() => expect(root.querySelector('[role="alert"]')?.textContent).toBe('The passphrase does not open this sync database.'))
    expect(status()).toEqual(off)
    expect(field(root, 'Sync passphrase').value).toBe('wrong horse')
    type(field(root, 'Sync passphrase'), 'correct horse')
    submit(root)
    await vi.waitFor(() => expect(status()?.state).toBe('syncing'))
    expect(api.enableSync).toHaveBeenLastCalledWith({
      url: 'https://couch.example.org',
      database: 'tabcode',
      passphrase: 'correct horse',
      secrets: true,
      messages: 'on-demand',
    })
    expect(field(root, 'Sync passphrase').value).toBe('')
    expect(root.querySelector('[role="alert"]')).toBeNull()
  })

  it('asks for the passphrase before turning on, and sends nothing without it', async () => {
    const api = fakeApi()
    const { root } = mount(api, off)
    type(field(root, 'Server URL'), 'https://couch.example.org')
    submit(root)
    await settle()
    expect(root.querySelector('[role="alert"]')?.textContent).toBe('Enter the sync passphrase.')
    expect(api.enableSync).not.toHaveBeenCalled()
  })

  it('when on: shows the setup with the password kept, pauses, resumes, syncs now and turns off after a confirmation', async () => {
    const api = fakeApi()
    const { root, status } = mount(api, synced)
    expect(field(root, 'Server URL').value).toBe('https://couch.example.org')
    expect(field(root, 'Database name').value).toBe('notes')
    expect(field(root, 'Password').value).toBe('')
    expect(root.textContent).toContain('A password is kept for this server: leave the field empty to keep it.')
    expect(field(root, 'When a session is opened').checked).toBe(true)
    button(root, 'Pause').click()
    await vi.waitFor(() => expect(status()?.state).toBe('paused'))
    button(root, 'Resume').click()
    await vi.waitFor(() => expect(status()?.state).toBe('synced'))
    button(root, 'Sync now').click()
    await vi.waitFor(() => expect(root.textContent).toContain('Syncing now.'))
    button(root, 'Turn off sync').click()
    await settle()
    const dialog = [...document.querySelectorAll('dialog')].at(-1)!
    expect(dialog.textContent).toContain('Everything on this device stays')
    expect(api.disableSync).not.toHaveBeenCalled()
    ;[...dialog.querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === 'Turn off sync')!.click()
    await vi.waitFor(() => expect(status()).toEqual(off))
    expect(root.textContent).not.toContain('Sync now')
  })

  it('shows a stopped sync’s fix', () => {
    const { root } = mount(fakeApi(), {
      ...synced,
      state: 'error',
      error: { name: 'SyncServerError', message: 'The sync server refused the credentials (401).', fix: 'Enter the new password and press Save and reconnect.' },
    })
    expect(root.textContent).toContain('Sync is on: Sync error: The sync server refused the credentials (401).')
    expect(root.textContent).toContain('Enter the new password and press Save and reconnect.')
  })
})
