import { createRoot } from 'solid-js'
import { describe, expect, it, vi } from 'vitest'
import type { ImportOutcome } from '../../core/dto/share'
import { AppError } from '../../core/errors'
import { makeBuilders } from '../../testing/fixture-builders'
import type { SessionInfo } from '../../core/schema'
import type { Progress } from '../../core/progress'
import { createImportFlow, IMPORT_CANCELLED_NOTICE, OPENED_LINK_NOTICE, type ImportApi } from './create-import-flow'
import { importProblemText } from './import-problem'

const build = makeBuilders()
const imported = build.session({ title: 'Shared parser work', metadata: { import: { hash: 'h', source: 'link', time: 1 } } })

const named = (name: string, message = name, data: Record<string, unknown> = {}) => new AppError(name, message, data)

function flow(api: Partial<ImportApi>) {
  const opened: { session: SessionInfo; notice: string }[] = []
  const full: ImportApi = {
    inspectShareLink: vi.fn(async () => ({ encrypted: false, version: 1 })),
    openShareLink: vi.fn(async (): Promise<ImportOutcome> => ({ kind: 'session', session: imported, duplicate: false, counts: { sessions: 1, messages: 2, parts: 3 } })),
    importFile: vi.fn(async (): Promise<ImportOutcome> => ({ kind: 'session', session: imported, duplicate: false, counts: { sessions: 1, messages: 2, parts: 3 } })),
    cancelOperation: vi.fn(async () => undefined),
    ...api,
  }
  const imports = createRoot(() => createImportFlow({ api: full, open: (session, notice) => void opened.push({ session, notice }) }))
  return { imports, opened, api: full }
}

const problemOf = (imports: ReturnType<typeof flow>['imports']) => {
  const problem = imports.problem()
  return problem ? importProblemText(problem) : undefined
}

describe('opening a share link', () => {
  it('opens a plain link at once and says the session is read-only', async () => {
    const { imports, opened, api } = flow({})
    await imports.openLink('#/share/v1.AAAA')
    expect(api.openShareLink).toHaveBeenCalledWith({ link: '#/share/v1.AAAA' })
    expect(opened).toEqual([{ session: imported, notice: OPENED_LINK_NOTICE }])
    expect(imports.problem()).toBeUndefined()
    expect(imports.busy()).toBe(false)
    expect(imports.status()).toBeUndefined()
  })

  it('asks for the passphrase of an encrypted link; a wrong one asks again with the reason, the right one opens it', async () => {
    const openShareLink = vi.fn(async (input: { passphrase?: string }): Promise<ImportOutcome> => {
      if (input.passphrase !== 'right') throw named('ImportWrongPassphraseError')
      return { kind: 'session', session: imported, duplicate: false, counts: { sessions: 1, messages: 1, parts: 1 } }
    })
    const { imports, opened } = flow({ inspectShareLink: vi.fn(async () => ({ encrypted: true, version: 1 })), openShareLink })
    await imports.openLink('#/share/v1e.AAAA')
    expect(openShareLink).not.toHaveBeenCalled()
    expect(imports.asking()).toEqual({ link: '#/share/v1e.AAAA' })
    await imports.submitPassphrase('wrong')
    expect(imports.asking()?.failure).toMatch(/^Wrong passphrase\. Check it and try again/)
    expect(opened).toEqual([])
    await imports.submitPassphrase('right')
    expect(openShareLink).toHaveBeenLastCalledWith({ link: '#/share/v1e.AAAA', passphrase: 'right' })
    expect(imports.asking()).toBeUndefined()
    expect(opened).toHaveLength(1)
  })

  it.each([
    ['ImportCorruptError', {}, 'This link is damaged'],
    ['ImportTruncatedError', {}, 'This link is incomplete (it was cut off)'],
    ['ImportTooLargeError', { what: 'the decompressed content (bytes)', limit: 20_971_520 }, 'This link is too large'],
    ['ImportNewerVersionError', { format: 'share link', version: 2, supported: 1 }, 'This link was made by a newer version of tabcode'],
    ['ImportInvalidError', { issues: 'messages.0.info.role: invalid' }, "This link's content is not valid"],
  ])('names the problem of a %s and opens nothing', async (name, data, headline) => {
    const { imports, opened } = flow({ openShareLink: vi.fn(async () => Promise.reject(named(name, 'worker words', data))) })
    await imports.openLink('#/share/v1.AAAA')
    expect(problemOf(imports)).toMatch(new RegExp(`^${headline.replace(/[()]/g, '\\$&')}\\. `))
    expect(problemOf(imports)).toContain('Nothing was imported.')
    expect(opened).toEqual([])
    expect(imports.asking()).toBeUndefined()
  })

  it('reports a link the worker rejects before opening it (a newer version, too long)', async () => {
    const { imports, api } = flow({
      inspectShareLink: vi.fn(async () => Promise.reject(named('ImportTooLargeError', 'x', { what: 'the link (characters)', limit: 524_288 }))),
    })
    await imports.openLink('#/share/v1.AAAA')
    expect(problemOf(imports)).toBe('This link is too large. The link (characters) is over the limit of 524,288. Nothing was imported.')
    expect(api.openShareLink).not.toHaveBeenCalled()
  })

  it('opens the same link twice into the same session and says so', async () => {
    const { imports, opened } = flow({
      openShareLink: vi.fn(async (): Promise<ImportOutcome> => ({ kind: 'session', session: imported, duplicate: true, counts: { sessions: 0, messages: 0, parts: 0 } })),
    })
    await imports.openLink('#/share/v1.AAAA')
    expect(opened[0]!.notice).toContain(OPENED_LINK_NOTICE)
    expect(opened[0]!.notice).toContain('same copy')
  })
})

describe('importing a file', () => {
  const file = new Blob(['{"format":"tabcode-session"}'], { type: 'application/json' })

  it('hands the bytes to the worker and opens the session', async () => {
    const { imports, opened, api } = flow({})
    await imports.importFile(file)
    const data = (api.importFile as ReturnType<typeof vi.fn>).mock.calls[0]![0].data as Uint8Array
    expect(new TextDecoder().decode(data)).toBe('{"format":"tabcode-session"}')
    expect(opened[0]!.notice).toBe('Imported a session (read-only)')
  })

  it('says how many sessions a backup restored', async () => {
    const { imports, opened } = flow({
      importFile: vi.fn(async (): Promise<ImportOutcome> => ({ kind: 'backup', imported: [imported, imported], skipped: 1, projects: [], counts: { sessions: 2, messages: 4, parts: 8 } })),
    })
    await imports.importFile(file)
    expect(opened).toEqual([])
    expect(imports.status()).toBe('Restored 2 sessions from the backup · 1 was already here')
  })

  it('words file problems for a file', async () => {
    const { imports } = flow({ importFile: vi.fn(async () => Promise.reject(named('ImportCorruptError'))) })
    await imports.importFile(file)
    expect(problemOf(imports)).toBe('This file is damaged. It cannot be read. Export the file again. Nothing was imported.')
  })
})

describe('one opening while another is being written', () => {
  const file = new Blob(['{"format":"tabcode-session"}'], { type: 'application/json' })
  const linked = build.session({ title: 'From the link', metadata: { import: { hash: 'l', source: 'link', time: 1 } } })

  it('a link opened during a file import waits, says so, and opens once the import is done', async () => {
    let finish!: () => void
    const written = new Promise<void>((resolve) => (finish = resolve))
    const importFile = vi.fn(async (): Promise<ImportOutcome> => {
      await written
      return { kind: 'session', session: imported, duplicate: false, counts: { sessions: 1, messages: 2, parts: 3 } }
    })
    const openShareLink = vi.fn(async (): Promise<ImportOutcome> => ({ kind: 'session', session: linked, duplicate: false, counts: { sessions: 1, messages: 1, parts: 1 } }))
    const { imports, opened } = flow({ importFile, openShareLink })
    const importing = imports.importFile(file)
    await vi.waitFor(() => expect(importFile).toHaveBeenCalled())
    await imports.openLink('#/share/v1.AAAA')
    expect(openShareLink).not.toHaveBeenCalled()
    expect(imports.status()).toBe('Importing… The shared link you opened opens when this is done.')
    finish()
    await importing
    expect(opened.map((entry) => entry.session.title)).toEqual(['Shared parser work', 'From the link'])
    expect(opened[1]!.notice).toBe(OPENED_LINK_NOTICE)
    expect(imports.busy()).toBe(false)
    expect(imports.status()).toBeUndefined()
  })

  it('a failed import keeps its problem on screen while the waiting link opens', async () => {
    let finish!: () => void
    const written = new Promise<void>((resolve) => (finish = resolve))
    const importFile = vi.fn(async (): Promise<ImportOutcome> => {
      await written
      throw named('ImportCorruptError')
    })
    const { imports, opened } = flow({ importFile })
    const importing = imports.importFile(file)
    await vi.waitFor(() => expect(importFile).toHaveBeenCalled())
    await imports.openLink('#/share/v1.AAAA')
    finish()
    await importing
    expect(problemOf(imports)).toMatch(/^This file is damaged\./)
    expect(opened).toHaveLength(1)
  })
})

describe("a file's import in progress", () => {
  it('shows what the worker reports while it writes, and nothing once it is done', async () => {
    let report: ((progress: Progress) => void) | undefined
    let finish!: (outcome: ImportOutcome) => void
    const { imports, opened } = flow({
      importFile: vi.fn((_input, onProgress) => {
        report = onProgress
        return new Promise<ImportOutcome>((resolve) => (finish = resolve))
      }),
    })
    const importing = imports.importFile(new Blob(['{}']))
    await vi.waitFor(() => expect(report).toBeDefined())
    expect(imports.progress()).toEqual({ type: 'working' })
    report!({ type: 'count', unit: 'messages', done: 250, total: 1_000 })
    expect(imports.progress()).toEqual({ type: 'count', unit: 'messages', done: 250, total: 1_000 })
    expect(imports.cancellable()).toBe(true)
    finish({ kind: 'session', session: imported, duplicate: false, counts: { sessions: 1, messages: 1_000, parts: 1_000 } })
    await importing
    expect(imports.progress()).toBeUndefined()
    expect(imports.cancellable()).toBe(false)
    expect(opened).toHaveLength(1)
  })

  it('cancels the operation it started by its id, and says nothing was imported', async () => {
    let operationID: string | undefined
    let reject!: (error: unknown) => void
    const { imports, opened, api } = flow({
      importFile: vi.fn((input) => {
        operationID = input.operationID
        return new Promise<ImportOutcome>((_resolve, fail) => (reject = fail))
      }),
    })
    const importing = imports.importFile(new Blob(['{}']))
    await vi.waitFor(() => expect(operationID).toBeDefined())
    imports.cancel()
    expect(api.cancelOperation).toHaveBeenCalledWith(operationID)
    expect(imports.cancellable()).toBe(false)
    reject(named('CancelledError', 'The import was cancelled.'))
    await importing
    expect(imports.status()).toBe(IMPORT_CANCELLED_NOTICE)
    expect(imports.problem()).toBeUndefined()
    expect(opened).toEqual([])
  })
})
