import { createRoot } from 'solid-js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LaunchParams } from './create-launch-handling'

/** A page at `href` whose launch queue the test fills; the module is fresh each time (it keeps what a page handled). */
async function launchedPage(href: string) {
  vi.resetModules()
  const location = new URL(href)
  const replaced: string[] = []
  vi.stubGlobal('window', { location })
  vi.stubGlobal('history', { state: null, replaceState: (_state: unknown, _title: string, url: string) => void replaced.push(url) })
  vi.stubGlobal('requestAnimationFrame', (run: () => void) => setTimeout(run, 0))
  vi.stubGlobal('cancelAnimationFrame', (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle))
  let consumer: ((params: LaunchParams) => void) | undefined
  const calls = { newSession: vi.fn(async () => {}), draft: vi.fn(async (_text: string) => {}), openLink: vi.fn(async (_link: string) => {}), importFile: vi.fn(async (_file: File) => {}) }
  const { createLaunchHandling } = await import('./create-launch-handling')
  const handling = createRoot(() => createLaunchHandling({ ...calls, launchQueue: () => ({ setConsumer: (next) => void (consumer = next) }) }))
  handling.start()
  await vi.waitFor(() => expect(consumer).toBeDefined())
  return { handling, calls, replaced, launch: (params: LaunchParams) => consumer!(params) }
}

const handle = (name: string, content: string, type = ''): FileSystemFileHandle =>
  ({ kind: 'file', name, getFile: async () => new File([content], name, { type }) }) as unknown as FileSystemFileHandle

afterEach(() => vi.unstubAllGlobals())

describe('createLaunchHandling', () => {
  it('imports an export, offers a zip and names any other file, each file in turn', async () => {
    const page = await launchedPage('https://tabcode.example/')
    page.launch({ targetURL: 'https://tabcode.example/', files: [handle('a.json', '{}'), handle('site.zip', 'PK'), handle('notes.txt', 'milk')] })
    await vi.waitFor(() => expect(page.handling.problems()).toHaveLength(1))
    expect(page.calls.importFile).toHaveBeenCalledWith(expect.objectContaining({ name: 'a.json' }))
    expect(page.handling.offeredZip()).toMatchObject({ fileName: 'site.zip', data: new Uint8Array([80, 75]) })
    expect(page.handling.problems()[0]).toContain('“notes.txt” is neither')
    expect(page.calls.newSession).not.toHaveBeenCalled()
    page.handling.closeOffer()
    expect(page.handling.offeredZip()).toBeUndefined()
  })

  it('carries out the address it was opened with once, takes it off, and does not take it again from the launch queue', async () => {
    const page = await launchedPage('https://tabcode.example/?launch=new-session')
    expect(page.calls.newSession).toHaveBeenCalledTimes(1)
    expect(page.replaced).toEqual(['/'])
    // A launch with no files is carried out at once, in the consumer's call.
    page.launch({ targetURL: 'https://tabcode.example/?launch=new-session', files: [] })
    expect(page.calls.newSession).toHaveBeenCalledTimes(1)
    // The window, already open, is focused by the shortcut again: that one is a new launch.
    page.launch({ targetURL: 'https://tabcode.example/?launch=new-session', files: [] })
    expect(page.calls.newSession).toHaveBeenCalledTimes(2)
  })

  it('takes a share that comes to an open window from the launch queue', async () => {
    const page = await launchedPage('https://tabcode.example/#/session/ses_1')
    expect(page.replaced).toEqual([])
    page.launch({ targetURL: 'https://tabcode.example/?share-text=Fix+the+bug', files: [] })
    expect(page.calls.draft).toHaveBeenCalledWith('Fix the bug')
  })
})
