// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { mount } from '../testing/mount'
import { createStorageStatus } from './create-storage-status'
import type { AskedMemory, StorageManagerLike } from './persistent-storage'
import { StorageStatus } from './storage-status'
import { StorageSummary } from './storage-summary'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A browser that grants persistence when asked (or not), with a usage and quota that tests can move. */
function fakeBrowser(options: { persisted?: boolean; grants?: boolean; usage?: number; quota?: number } = {}) {
  const state = { persisted: options.persisted ?? false, usage: options.usage ?? 12_345_678, quota: options.quota ?? 1_200_000_000 }
  const manager = {
    persist: vi.fn(async () => {
      if (options.grants) state.persisted = true
      return state.persisted
    }),
    persisted: vi.fn(async () => state.persisted),
    estimate: vi.fn(async () => ({ usage: state.usage, quota: state.quota })),
  } satisfies StorageManagerLike
  const flag = { asked: false }
  const memory: AskedMemory = { get: () => flag.asked, set: () => void (flag.asked = true) }
  return { state, manager, memory, flag }
}

const region = (container: HTMLElement) => container.querySelector<HTMLElement>('section[aria-label="Storage"]')!
const button = (container: HTMLElement, name: string) =>
  [...container.querySelectorAll<HTMLButtonElement>('button')].find((element) => element.textContent?.trim() === name)

describe('storage status', () => {
  it('says storage is not persistent, with usage and quota, and offers to ask; granted, the offer goes', async () => {
    const browser = fakeBrowser({ grants: true })
    let status!: ReturnType<typeof createStorageStatus>
    const container = mount(() => {
      status = createStorageStatus({ manager: browser.manager, memory: browser.memory })
      return <StorageStatus status={status} />
    })
    await settle()
    const text = region(container).textContent
    expect(text).toContain("Persistent storage: not granted — the browser may clear tabcode's data when space runs low")
    expect(text).toContain('Using 12.3 MB of 1.2 GB')
    button(container, 'Request persistent storage')!.click()
    await settle()
    expect(browser.manager.persist).toHaveBeenCalledOnce()
    expect(browser.flag.asked).toBe(true)
    expect(region(container).textContent).toContain('Persistent storage: granted')
    expect(button(container, 'Request persistent storage')).toBeUndefined()
  })

  it('says so when the browser declines the request, and warns when the share is nearly full', async () => {
    const browser = fakeBrowser({ grants: false, usage: 950, quota: 1_000 })
    const container = mount(() => {
      const status = createStorageStatus({ manager: browser.manager, memory: browser.memory })
      return <StorageStatus status={status} />
    })
    await settle()
    expect(region(container).textContent).toContain('Using 950 bytes of 1 kB')
    expect(region(container).textContent).toContain('Storage is nearly full')
    button(container, 'Request persistent storage')!.click()
    await settle()
    expect(container.querySelector('[role="status"]')?.textContent).toMatch(/The browser declined/)
    expect(button(container, 'Request persistent storage')).toBeDefined()
  })

  it('asks by itself only once history exists, and only once', async () => {
    const browser = fakeBrowser()
    const status = createStorageStatus({ manager: browser.manager, memory: browser.memory })
    await status.historyExists()
    await status.historyExists()
    expect(browser.manager.persist).toHaveBeenCalledOnce()
    const again = createStorageStatus({ manager: browser.manager, memory: browser.memory })
    await again.historyExists()
    expect(browser.manager.persist).toHaveBeenCalledOnce()
  })

  it('without the Storage API, says it cannot tell and offers nothing', async () => {
    const container = mount(() => {
      const status = createStorageStatus({ manager: undefined, memory: { get: () => false, set: () => {} } })
      return <StorageStatus status={status} />
    })
    await settle()
    expect(region(container).textContent).toContain('Persistent storage: unknown')
    expect(button(container, 'Request persistent storage')).toBeUndefined()
  })

  it('the sidebar line shows usage, marks a non-persistent store, and opens the details', async () => {
    const browser = fakeBrowser()
    const container = mount(() => {
      const status = createStorageStatus({ manager: browser.manager, memory: browser.memory })
      void status.refresh()
      return <StorageSummary status={status} />
    })
    await settle()
    const toggle = container.querySelector<HTMLButtonElement>('button[aria-expanded]')!
    expect(toggle.textContent).toBe('Storage · 12.3 MB')
    expect(toggle.getAttribute('title')).toMatch(/not granted/)
    expect(container.querySelector('.storage-warning-dot')).not.toBeNull()
    expect(container.querySelector('section[aria-label="Storage"]')).toBeNull()
    toggle.click()
    await settle()
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(region(container).textContent).toContain('Using 12.3 MB of 1.2 GB')
  })
})
