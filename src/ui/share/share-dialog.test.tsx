// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render } from 'solid-js/web'
import type { Redaction, ShareLinkPreview } from '../../core/dto/share'
import { AppError } from '../../core/errors'
import { byRole, nameOf, one, settle } from '../history/testing/history-harness'
import { ShareDialog, type ShareApi, type ShareEffects } from './share-dialog'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const LIMIT = 524_288
const EXPORTED = new Blob(['{"format":"tabcode-session"}'], { type: 'application/json' })
const COMFORTABLE = 32_768
const KEY: Redaction = { kind: 'OpenAI key', where: 'Message 2 (assistant) · tool "bash" · output', path: [], hint: 'sk-p… (51 characters)' }

function preview(chars: number, extra: Partial<ShareLinkPreview> = {}): ShareLinkPreview {
  return { chars, limit: LIMIT, comfortable: COMFORTABLE, redactions: [], shortened: 0, ...extra }
}

function mount(options: { preview?: (input: { includeToolOutput?: boolean; encrypted?: boolean }) => ShareLinkPreview; create?: ShareApi['createShareLink']; effects?: Partial<ShareEffects> } = {}) {
  const api = {
    previewShareLink: vi.fn(async (input: { includeToolOutput?: boolean; encrypted?: boolean }) => (options.preview ?? (() => preview(1_234)))(input)),
    createShareLink: vi.fn(
      options.create ??
        (async (input) => ({ url: `https://tabcode.test/#/share/v1${input.passphrase ? 'e' : ''}.AAAA`, chars: 30, redactions: [], shortened: 0, encrypted: !!input.passphrase })),
    ),
    exportSession: vi.fn(async (input: { includeFiles?: boolean; includeUnscanned?: string[] }) => ({
      fileName: 'parser-session.json',
      data: EXPORTED,
      redactions: [],
      ...(input.includeFiles && !input.includeUnscanned?.includes('logo.png') ? { leftOut: ['logo.png'] } : {}),
    })),
    previewExportFiles: vi.fn(async () => ({ unscanned: [{ path: 'logo.png', bytes: 2_048 }] })),
  }
  const effects = { copy: vi.fn(async () => {}), download: vi.fn(), ...options.effects }
  const onClose = vi.fn()
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(
    () => <ShareDialog api={api as unknown as ShareApi} sessionID="ses_1" title="Parser" base="https://tabcode.test/" onClose={onClose} effects={effects} />,
    container,
  )
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  return { root: container, api, effects, onClose }
}

const checkbox = (root: HTMLElement, name: string) =>
  byRole<HTMLInputElement>(root, 'checkbox').find((box) => box.parentElement?.textContent?.trim() === name)!
const button = (root: HTMLElement, name: string) => one<HTMLButtonElement>(root, 'button', name)
const toggle = async (box: HTMLInputElement) => {
  box.click()
  await settle()
}
const meter = (root: HTMLElement) => root.querySelector('meter')!

describe('share dialog', () => {
  it('measures the link and says when nothing secret was found', async () => {
    const { root, api } = mount()
    await settle()
    expect(byRole(root, 'dialog')[0]!.getAttribute('aria-labelledby')).toBeTruthy()
    expect(root.textContent).toContain('Share session')
    expect(nameOf(meter(root))).toBe('Link size')
    expect(meter(root).getAttribute('aria-valuetext')).toBe('1,234 characters of 524,288')
    expect(root.textContent).toContain('1,234 characters of 524,288')
    expect(root.textContent).toContain('No secrets found')
    expect(api.previewShareLink).toHaveBeenCalledWith({ sessionID: 'ses_1', base: 'https://tabcode.test/', includeToolOutput: false, encrypted: false })
    expect(button(root, 'Create link').disabled).toBe(false)
  })

  it('lists each secret it takes out, with where it was, never the secret', async () => {
    const { root } = mount({ preview: () => preview(900, { redactions: [KEY, { ...KEY, kind: 'GitHub token', where: 'Message 1 (user) · text', hint: 'ghp_… (40 characters)' }] }) })
    await settle()
    const list = one(root, 'list', 'Secrets removed')
    const items = byRole(list, 'listitem').map((item) => item.textContent)
    expect(items).toEqual([
      'OpenAI key sk-p… (51 characters) · Message 2 (assistant) · tool "bash" · output',
      'GitHub token ghp_… (40 characters) · Message 1 (user) · text',
    ])
    expect(root.textContent).not.toContain('No secrets found')
  })

  it('measures again with the tool outputs in full, and says how many are shortened otherwise', async () => {
    const { root, api } = mount({ preview: (input) => preview(input.includeToolOutput ? 40_000 : 2_000, { shortened: input.includeToolOutput ? 0 : 3 }) })
    await settle()
    expect(root.textContent).toContain('cut to 200 characters (3 shortened)')
    await toggle(checkbox(root, 'Include tool outputs in full'))
    expect(api.previewShareLink).toHaveBeenLastCalledWith(expect.objectContaining({ includeToolOutput: true }))
    expect(root.textContent).toContain('40,000 characters of 524,288')
    // Past what pastes anywhere: still allowed, with a warning.
    expect(root.textContent).toContain('may not paste everywhere')
    expect(button(root, 'Create link').disabled).toBe(false)
  })

  it('refuses a link over the limit and offers the file export instead', async () => {
    const { root, effects, api } = mount({ preview: () => preview(600_000) })
    await settle()
    expect(button(root, 'Create link').disabled).toBe(true)
    const alert = byRole(root, 'alert').find((node) => node.textContent?.includes('too long'))!
    expect(alert.textContent).toContain('This link is too long')
    button(alert, 'Export as file instead').click()
    await settle()
    expect(api.exportSession).toHaveBeenCalledWith({ sessionID: 'ses_1', format: 'tabcode', operationID: expect.stringMatching(/^export-/) }, expect.any(Function))
    expect(effects.download).toHaveBeenCalledWith('parser-session.json', EXPORTED)
    expect(root.textContent).toContain('Saved parser-session.json.')
  })

  it('shows the refusal when the worker finds the link too long after all', async () => {
    const { root } = mount({
      preview: () => preview(524_000),
      create: async () => {
        throw new AppError('ShareTooLongError', 'This session makes a link of 524,400 characters, over the 524,288 a link can carry.', { chars: 524_400, limit: LIMIT })
      },
    })
    await settle()
    button(root, 'Create link').click()
    await settle()
    const alert = byRole(root, 'alert').find((node) => node.textContent?.includes('524,400'))!
    expect(alert).toBeTruthy()
    expect(button(alert, 'Export as file instead')).toBeTruthy()
    expect(button(root, 'Create link').disabled).toBe(true)
  })

  it('asks for a passphrase before making a protected link, and measures with the encryption', async () => {
    const { root, api } = mount()
    await settle()
    expect(root.querySelector('input[type="password"]')).toBeNull()
    await toggle(checkbox(root, 'Protect with a passphrase'))
    expect(api.previewShareLink).toHaveBeenLastCalledWith(expect.objectContaining({ encrypted: true }))
    const field = root.querySelector<HTMLInputElement>('input[type="password"]')!
    expect(root.querySelector(`label[for="${field.id}"]`)?.textContent?.trim()).toBe('Passphrase')
    expect(button(root, 'Create link').disabled).toBe(true)
    field.value = 'correct horse'
    field.dispatchEvent(new Event('input', { bubbles: true }))
    await settle()
    button(root, 'Create link').click()
    await settle()
    expect(api.createShareLink).toHaveBeenCalledWith({ sessionID: 'ses_1', base: 'https://tabcode.test/', includeToolOutput: false, passphrase: 'correct horse' })
    const url = root.querySelector<HTMLInputElement>('input.share-url')!
    expect(url.value).toBe('https://tabcode.test/#/share/v1e.AAAA')
    expect(root.textContent).toContain('encrypted with the passphrase')
  })

  it('gives the link in a read-only field to copy, and offers the share sheet only where it exists', async () => {
    const { root, effects } = mount()
    await settle()
    button(root, 'Create link').click()
    await settle()
    const url = root.querySelector<HTMLInputElement>('input.share-url')!
    expect(url.readOnly).toBe(true)
    expect(root.querySelector(`label[for="${url.id}"]`)?.textContent?.trim()).toBe('Share link')
    expect(byRole(root, 'button', 'Share…')).toHaveLength(0)
    button(root, 'Copy link').click()
    await settle()
    expect(effects.copy).toHaveBeenCalledWith('https://tabcode.test/#/share/v1.AAAA')
    expect(one(root, 'status').textContent).toBe('Link copied.')
  })

  it('hands the link to the Web Share API when the browser has one', async () => {
    const share = vi.fn(async () => {})
    const { root } = mount({ effects: { share } })
    await settle()
    button(root, 'Create link').click()
    await settle()
    button(root, 'Share…').click()
    await settle()
    expect(share).toHaveBeenCalledWith({ title: 'Parser', url: 'https://tabcode.test/#/share/v1.AAAA' })
  })

  it('exports the session as a file, with the workspace files when asked', async () => {
    const { root, api, effects } = mount()
    await settle()
    await toggle(checkbox(root, 'Include workspace files'))
    button(root, 'Export as file').click()
    await settle()
    expect(api.exportSession).toHaveBeenCalledWith({ sessionID: 'ses_1', format: 'tabcode', includeFiles: true, operationID: expect.stringMatching(/^export-/) }, expect.any(Function))
    expect(effects.download).toHaveBeenCalledWith('parser-session.json', EXPORTED)
  })

  it('offers the tabcode and opencode formats; an opencode file has no workspace files to include', async () => {
    const { root, api } = mount()
    await settle()
    const formats = [...root.querySelectorAll('fieldset')].find((set) => set.querySelector('legend')?.textContent === 'Format')!
    const radios = [...formats.querySelectorAll<HTMLInputElement>('input[type="radio"]')]
    expect(radios.map((radio) => radio.parentElement!.textContent!.split(' · ')[0]!.trim())).toEqual(['tabcode', 'opencode'])
    expect(radios[0]!.checked).toBe(true)
    await toggle(radios[1]!)
    expect(checkbox(root, 'Include workspace files')).toBeUndefined()
    button(root, 'Export as file').click()
    await settle()
    expect(api.exportSession).toHaveBeenLastCalledWith({ sessionID: 'ses_1', format: 'opencode', operationID: expect.stringMatching(/^export-/) }, expect.any(Function))
  })

  it('lists the binary files it could not scan, leaves them out by default, and includes one when asked', async () => {
    const { root, api } = mount()
    await settle()
    expect(root.textContent).not.toContain('Not scanned for secrets')
    await toggle(checkbox(root, 'Include workspace files'))
    // A fieldset, so its legend names the group of checkboxes.
    const group = [...root.querySelectorAll('fieldset')].find((set) => set.querySelector('legend')?.textContent === 'Not scanned for secrets')!
    expect(group.textContent).toContain('left out unless you include them')
    const logo = byRole<HTMLInputElement>(group, 'checkbox').find((box) => box.parentElement?.textContent?.includes('Include logo.png'))!
    expect(logo.parentElement!.textContent).toContain('2 kB')
    expect(logo.checked).toBe(false)

    button(root, 'Export as file').click()
    await settle()
    expect(api.exportSession).toHaveBeenLastCalledWith({ sessionID: 'ses_1', format: 'tabcode', includeFiles: true, operationID: expect.stringMatching(/^export-/) }, expect.any(Function))
    expect(one(root, 'status').textContent).toBe('Saved parser-session.json (1 unscanned file left out).')

    await toggle(logo)
    button(root, 'Export as file').click()
    await settle()
    expect(api.exportSession).toHaveBeenLastCalledWith({ sessionID: 'ses_1', format: 'tabcode', includeFiles: true, includeUnscanned: ['logo.png'], operationID: expect.stringMatching(/^export-/) }, expect.any(Function))
    expect(one(root, 'status').textContent).toBe('Saved parser-session.json.')
  })
})
