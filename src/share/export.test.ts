import { describe, expect, test } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import type { StoreContext } from '../store/context'
import { exportBackup, exportFileName, exportSession, loadTranscript, unscannedFiles } from './export'
import { importTranscript } from './import'
import { ascending } from '../core/id'
import { importFile, type OpenDependencies } from './open'
import { fromOpencodeExport, toOpencodeExport } from './opencode'
import { richTranscript } from './testing/rich-transcript'
import { withoutIds } from './testing/normalize'
import { rowCounts, setupShareStore } from './testing/store'
import { projectRows } from '../snapshot/project-rows'
import type { SessionTranscript } from './transcript'

/** The rich transcript with a second child, to see that children keep their order. */
function familyTranscript(): SessionTranscript {
  const transcript = richTranscript()
  const build = makeBuilders(Date.UTC(2026, 10, 30, 13))
  const second = build.session({ parentID: transcript.info.id, title: 'Second helper' })
  const user = build.user(second.id)
  transcript.children!.push({ info: second, messages: [{ info: user, parts: [build.text(user, 'Check the retry module too.')] }] })
  return transcript
}

/** Stores a transcript as-is (original ids), as if the app had made it. */
async function store(context: StoreContext, projectID: string, transcript: SessionTranscript): Promise<string> {
  const rows = { sessions: [] as SessionTranscript['info'][], messages: [] as SessionTranscript['messages'][number]['info'][], parts: [] as SessionTranscript['messages'][number]['parts'] }
  const walk = (node: SessionTranscript) => {
    rows.sessions.push({ ...node.info, projectID })
    for (const message of node.messages) {
      rows.messages.push(message.info)
      rows.parts.push(...message.parts)
    }
    for (const child of node.children ?? []) walk(child)
  }
  walk(transcript)
  await context.db.sessions.bulkAdd(rows.sessions)
  await context.db.messages.bulkAdd(rows.messages)
  await context.db.parts.bulkAdd(rows.parts)
  return transcript.info.id
}

const encoder = new TextEncoder()

describe('session file export and import', () => {
  test('export then import is lossless: equal but for ids, children in order', async () => {
    const source = await setupShareStore()
    const transcript = familyTranscript()
    const sessionID = await store(source.context, source.projectID, transcript)
    const { document, redactions } = await exportSession(source.context, sessionID)
    expect(redactions).toEqual([])
    expect(document).toMatchObject({ format: 'tabcode-session', version: 1, exported: { app: 'test' } })
    const text = JSON.stringify(document, null, 2)

    const target = await setupShareStore()
    const outcome = await importFile({ context: target.context, projectID: target.projectID }, encoder.encode(text))
    if (outcome.kind !== 'session') throw new Error('expected a session')
    const imported = await loadTranscript(target.context, outcome.session.id)
    expect(withoutIds(imported)).toEqual(withoutIds(await loadTranscript(source.context, sessionID)))
    expect(imported.children?.map((child) => child.info.title)).toEqual(
      (await loadTranscript(source.context, sessionID)).children?.map((child) => child.info.title),
    )
    expect(imported.info.metadata?.import).toMatchObject({ source: 'file' })

    // The same file again: the first import is returned, nothing is added.
    const before = await rowCounts(target.context)
    const again = await importFile({ context: target.context, projectID: target.projectID }, text)
    expect(again).toMatchObject({ kind: 'session', duplicate: true, session: { id: outcome.session.id } })
    expect(await rowCounts(target.context)).toEqual(before)
  })

  test('a binary file, which nothing can scan for secrets, is listed and left out unless the user keeps it', async () => {
    const source = await setupShareStore()
    const sessionID = await store(source.context, source.projectID, richTranscript())
    const planted = 'sk-proj-Planted0123456789abcdef'
    const binary = new Uint8Array([0xff, 0xfe, 0x00, ...new TextEncoder().encode(planted), 0x80])
    await source.context.db.blobs.bulkAdd([
      { hash: 'h-env', data: encoder.encode(`OPENAI_API_KEY=${planted}\n`), size: 1 },
      { hash: 'h-bin', data: binary, size: binary.length },
    ])
    await source.context.db.snapshots.add({ id: 'snap-after', projectID: source.projectID, files: { '.env': 'h-env', 'data.bin': 'h-bin' }, time: { created: 1 } })

    expect(await unscannedFiles(source.context, sessionID)).toEqual([{ path: 'data.bin', bytes: binary.length }])
    const { document, leftOut } = await exportSession(source.context, sessionID, { includeFiles: true })
    expect(leftOut).toEqual(['data.bin'])
    expect(document.files?.map((file) => file.path)).toEqual(['.env'])
    expect(JSON.stringify(document)).not.toContain(planted)
    expect(JSON.stringify(document)).not.toContain(Buffer.from(binary).toString('base64'))
  })

  test('the last snapshot’s files travel along and come back as a project of their own', async () => {
    const source = await setupShareStore()
    const transcript = richTranscript()
    const sessionID = await store(source.context, source.projectID, transcript)
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255])
    await source.context.db.blobs.bulkAdd([
      { hash: 'h-readme', data: encoder.encode('# Upload\nKEY=sk-proj-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2\n'), size: 1 },
      { hash: 'h-logo', data: png, size: png.length },
    ])
    await source.context.db.snapshots.add({
      id: 'snap-after',
      projectID: source.projectID,
      files: { 'README.md': 'h-readme', 'logo.png': 'h-logo', 'video.mp4': 'large:90000000:1' },
      time: { created: 1 },
    })
    // The user chose to keep the one binary file, which nothing could scan.
    const { document, redactions } = await exportSession(source.context, sessionID, { includeFiles: true, includeUnscanned: ['logo.png'] })
    expect(document.files).toEqual([
      { path: 'README.md', text: '# Upload\nKEY=[redacted OpenAI key]\n' },
      { path: 'logo.png', base64: Buffer.from(png).toString('base64') },
    ])
    expect(redactions.map((item) => item.where)).toEqual(['Workspace file README.md'])

    const target = await setupShareStore()
    const created: { name: string; files: { path: string; data: Uint8Array }[] }[] = []
    const dependencies: OpenDependencies = {
      context: target.context,
      projectID: target.projectID,
      prepareProject: async (input) => {
        created.push(input)
        return projectRows({ id: 'prj_restored', name: input.name, directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } }, input.files, 1)
      },
    }
    const outcome = await importFile(dependencies, JSON.stringify(document))
    expect(created).toHaveLength(1)
    expect(created[0]!.name).toBe('Fix the flaky upload test')
    expect(created[0]!.files.map((file) => file.path)).toEqual(['README.md', 'logo.png'])
    expect(created[0]!.files[1]!.data).toEqual(png)
    const stored = await target.context.db.files.where('projectID').equals('prj_restored').toArray()
    expect(stored.map((row) => row.path).sort()).toEqual(['/workspace/README.md', '/workspace/logo.png'])
    expect(await target.context.db.projects.get('prj_restored')).toMatchObject({ name: 'Fix the flaky upload test' })
    expect(outcome.kind === 'session' && outcome.session.projectID).toBe('prj_restored')
  })

  test('secrets in the conversation and the stored provider keys never reach the file', async () => {
    const source = await setupShareStore()
    const transcript = richTranscript()
    const text = transcript.messages[0]!.parts[0]!
    if (text.type !== 'text') throw new Error('fixture changed')
    text.text = 'use key sk-ant-api03-Secret0123456789abcdefXYZ and my custom one my-own-key-42424242'
    const sessionID = await store(source.context, source.projectID, transcript)
    const { document, redactions } = await exportSession(source.context, sessionID, { knownSecrets: ['my-own-key-42424242'] })
    const json = JSON.stringify(document)
    expect(json).not.toContain('Secret0123456789')
    expect(json).not.toContain('my-own-key-42424242')
    expect(redactions.map((item) => item.kind).sort()).toEqual(['Anthropic key', 'stored provider key'])
  })

  test('bad files each get their own error and write nothing', async () => {
    const { context, projectID } = await setupShareStore()
    const dependencies = { context, projectID }
    const valid = JSON.parse(JSON.stringify({ format: 'tabcode-session', version: 1, exported: { time: 1, app: 'x' }, session: richTranscript() })) as Record<string, unknown>
    const cases: [string, Uint8Array | string][] = [
      ['ImportCorruptError', ''],
      ['ImportCorruptError', '{"format": "tabcode-session", '],
      ['ImportCorruptError', new Uint8Array([0xff, 0xfe, 0x00, 0x7b])],
      ['ImportNewerVersionError', JSON.stringify({ ...valid, version: 2 })],
      ['ImportNewerVersionError', JSON.stringify({ format: 'tabcode-workspace', version: 1 })],
      ['ImportInvalidError', JSON.stringify({ ...valid, session: { info: { id: 'nope' }, messages: [] } })],
      ['ImportInvalidError', JSON.stringify({ format: 'something-else', version: 1 })],
      ['ImportInvalidError', JSON.stringify({ hello: 'world' })],
    ]
    for (const [name, input] of cases) await expect(importFile(dependencies, input), name).rejects.toMatchObject({ name })
    expect(await rowCounts(context)).toEqual({ sessions: 0, messages: 0, parts: 0 })
  })

  test('a file that would break a reference is refused before its project, files or rows are written', async () => {
    const { context, projectID } = await setupShareStore()
    const dump = async () => JSON.stringify(await Promise.all(context.db.tables.map(async (table) => [table.name, await table.toArray()])))
    const before = await dump()
    const prepareProject: OpenDependencies['prepareProject'] = (input) =>
      projectRows({ id: 'prj_restored', name: input.name, directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } }, input.files, 1)
    const file = (edit: (transcript: SessionTranscript) => void) => {
      const transcript = richTranscript()
      edit(transcript)
      return JSON.stringify({ format: 'tabcode-session', version: 1, exported: { time: 1, app: 'x' }, session: transcript, files: [{ path: 'a/b.txt', text: 'b' }] })
    }
    const cases: [RegExp, string][] = [
      [/message msg_\w+ appears twice/, file((t) => (t.messages[1]!.info.id = t.messages[0]!.info.id))],
      [/part prt_\w+ appears twice/, file((t) => (t.messages[1]!.parts[0]!.id = t.messages[0]!.parts[0]!.id))],
      [/reply msg_\w+ answers no prompt/, file((t) => t.messages.splice(0, 1))],
    ]
    for (const [issues, input] of cases) {
      await expect(importFile({ context, projectID, prepareProject }, input), String(issues)).rejects.toMatchObject({
        name: 'ImportInvalidError',
        data: { issues: expect.stringMatching(issues) },
      })
      expect(await dump(), String(issues)).toBe(before)
    }
  })

  test('a write that fails part-way leaves no project, file or blob; the same file then imports once', async () => {
    const { context, projectID } = await setupShareStore()
    const document = { format: 'tabcode-session', version: 1, exported: { time: 1, app: 'x' }, session: richTranscript(), files: [{ path: 'src/a.ts', text: 'a' }] }
    const text = JSON.stringify(document)
    const rows = (id: string): NonNullable<OpenDependencies['prepareProject']> => (input) =>
      projectRows({ id, name: input.name, directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } }, input.files, 1)
    // A session already holding the id the import mints: its bulkAdd fails after the project and files were added.
    const taken = `ses_${'f'.repeat(26)}`
    await context.db.sessions.add({ ...richTranscript().info, id: taken, projectID })
    const project = await rows('prj_first')({ name: 'x', files: [{ path: 'src/a.ts', data: new TextEncoder().encode('a') }] })
    const ids = { ascending, descending: () => taken }
    await expect(importTranscript(context, document.session, { projectID, source: 'file', hash: 'h', ids, project })).rejects.toThrow()
    expect(await context.db.projects.get('prj_first')).toBeUndefined()
    expect(await context.db.files.count()).toBe(0)
    expect(await context.db.blobs.count()).toBe(0)
    await context.db.sessions.delete(taken)

    const first = await importFile({ context, projectID, prepareProject: rows('prj_second') }, text)
    const again = await importFile({ context, projectID, prepareProject: rows('prj_third') }, text)
    expect(again).toMatchObject({ duplicate: true, session: { id: first.kind === 'session' ? first.session.id : '' } })
    expect((await context.db.projects.toArray()).map((row) => row.id).sort()).toEqual([projectID, 'prj_second'].sort())
    expect((await context.db.files.toArray()).map((row) => row.path)).toEqual(['/workspace/src', '/workspace/src/a.ts'])
  })

  test('an opencode export is recognised and handed to the converter', async () => {
    const { context, projectID } = await setupShareStore()
    const transcript = richTranscript()
    delete transcript.children
    const outcome = await importFile({ context, projectID, fromOpencode: fromOpencodeExport }, JSON.stringify(toOpencodeExport(transcript)))
    if (outcome.kind !== 'session') throw new Error('expected a session')
    expect(outcome.session.metadata?.import).toMatchObject({ source: 'opencode' })
    const imported = await loadTranscript(context, outcome.session.id)
    expect(imported.messages).toHaveLength(transcript.messages.length)
    // Without a converter, the file is refused rather than misread.
    await expect(importFile({ context, projectID }, JSON.stringify(toOpencodeExport(transcript)))).rejects.toMatchObject({ name: 'ImportInvalidError' })
  })

  test('file names are safe', () => {
    const time = Date.UTC(2026, 10, 30)
    expect(exportFileName('Fix: the "flaky" upload/test?', 'session', time)).toBe('fix-the-flaky-uploadtest-2026-11-30.tabcode.json')
    expect(exportFileName('', 'session', time)).toBe('session-2026-11-30.tabcode.json')
    expect(exportFileName('x', 'backup', time)).toBe('tabcode-backup-2026-11-30.json')
  })
})

describe('backups', () => {
  test('hold every project, session, message and part, and never providers, keys or settings', async () => {
    const { context, projectID } = await setupShareStore()
    await store(context, projectID, familyTranscript())
    const apiKey = 'sk-live-provider-key-0123456789abcdef'
    await context.db.providers.add({ id: 'prv_1', type: 'openai', name: 'OpenAI', apiKey, models: [], time: { created: 1, updated: 1 } })
    await context.db.settings.put({ key: 'retry.limit', value: 3 })
    const gitToken = 'ghp_git-token-0123456789abcdef'
    await context.db.settings.put({ key: 'git.tokens', value: { 'example.com': gitToken } })
    const { document } = await exportBackup(context, { knownSecrets: [apiKey] })
    expect(Object.keys(document).sort()).toEqual(['exported', 'format', 'messages', 'parts', 'projects', 'sessions', 'version'])
    expect(document.projects).toHaveLength(1)
    // Whether this browser trusts a project is not the backup's to carry: the format's fields only.
    expect(Object.keys(document.projects[0]!).sort()).toEqual(['directory', 'id', 'name', 'time'])
    expect(document.sessions).toHaveLength(3)
    expect(document.messages).toHaveLength(9)
    expect(document.parts).toHaveLength(16)
    const json = JSON.stringify(document)
    expect(json).not.toContain(apiKey)
    expect(json).not.toContain(gitToken)
    expect(json).not.toContain('retry.limit')
    expect(json).not.toContain('prv_1')
  })

  test('restore elsewhere is lossless; restoring again, or where the originals still are, adds nothing', async () => {
    const source = await setupShareStore()
    const sessionID = await store(source.context, source.projectID, familyTranscript())
    const other = richTranscript()
    delete other.children
    other.info = { ...other.info, id: 'ses_standalone1', title: 'Standalone' }
    for (const message of other.messages) {
      message.info = { ...message.info, sessionID: other.info.id }
      message.parts = message.parts.map((part) => ({ ...part, sessionID: other.info.id, id: `${part.id}b`, messageID: part.messageID }))
      message.info = { ...message.info, id: `${message.info.id}b` } as typeof message.info
      message.parts = message.parts.map((part) => ({ ...part, messageID: message.info.id }))
    }
    for (const message of other.messages) {
      if (message.info.role === 'assistant') message.info = { ...message.info, parentID: `${message.info.parentID}b` }
    }
    await store(source.context, source.projectID, other)
    const { document } = await exportBackup(source.context)
    const text = JSON.stringify(document)

    const target = await setupShareStore()
    const dependencies = { context: target.context, projectID: target.projectID }
    const restored = await importFile(dependencies, text)
    if (restored.kind !== 'backup') throw new Error('expected a backup')
    expect(restored.imported.map((session) => session.title).sort()).toEqual(['Fix the flaky upload test', 'Standalone'])
    expect(restored.skipped).toBe(0)
    // The backup's project did not exist here, so it was recreated (with a new id) and holds the sessions.
    expect(restored.projects).toHaveLength(1)
    expect(restored.imported.every((session) => session.projectID === restored.projects[0]!.id)).toBe(true)
    // A backup file can come from anyone: the project it recreates waits for the user's trust.
    expect(await target.context.db.projects.get(restored.projects[0]!.id)).toMatchObject({ origin: { type: 'backup' }, trust: { type: 'untrusted' } })
    const root = restored.imported.find((session) => session.title === 'Fix the flaky upload test')!
    expect(withoutIds(await loadTranscript(target.context, root.id))).toEqual(withoutIds(await loadTranscript(source.context, sessionID)))

    const before = await rowCounts(target.context)
    const again = await importFile(dependencies, text)
    expect(again).toMatchObject({ kind: 'backup', imported: [], skipped: 2 })
    expect(await rowCounts(target.context)).toEqual(before)

    const home = await importFile({ context: source.context, projectID: source.projectID }, text)
    expect(home).toMatchObject({ kind: 'backup', imported: [], skipped: 2, projects: [] })
  })

  test('a backup that claims its project is trusted restores it untrusted all the same', async () => {
    const source = await setupShareStore()
    await store(source.context, source.projectID, richTranscript())
    const { document } = await exportBackup(source.context)
    const claimed = { ...document, projects: document.projects.map((project) => ({ ...project, trust: { type: 'trusted', time: 1 }, origin: { type: 'empty' } })) }
    const target = await setupShareStore()
    const restored = await importFile({ context: target.context, projectID: target.projectID }, JSON.stringify(claimed))
    if (restored.kind !== 'backup') throw new Error('expected a backup')
    expect(await target.context.db.projects.get(restored.projects[0]!.id)).toMatchObject({ origin: { type: 'backup' }, trust: { type: 'untrusted' } })
  })

  test('a backup with a message id twice is refused by name and writes nothing', async () => {
    const source = await setupShareStore()
    await store(source.context, source.projectID, richTranscript())
    const { document } = await exportBackup(source.context)
    document.messages.push(document.messages[0]!)
    const target = await setupShareStore()
    const before = await rowCounts(target.context)
    await expect(importFile({ context: target.context, projectID: target.projectID }, JSON.stringify(document))).rejects.toMatchObject({
      name: 'ImportInvalidError',
      data: { issues: `message ${document.messages[0]!.id} appears twice` },
    })
    expect(await rowCounts(target.context)).toEqual(before)
    expect(await target.context.db.projects.count()).toBe(1)
  })

  test('an imported session exports and imports again like any other', async () => {
    const { context, projectID } = await setupShareStore()
    const first = await importTranscript(context, richTranscript(), { projectID, source: 'link', hash: 'x' })
    const { document } = await exportSession(context, first.session.id)
    const second = await importFile({ context, projectID }, JSON.stringify(document))
    expect(second).toMatchObject({ kind: 'session', duplicate: false })
  })
})
