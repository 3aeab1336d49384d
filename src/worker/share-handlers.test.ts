import { describe, expect, test } from 'vitest'
import { ensureDefaultProject } from '../store/project-store'
import { makeTestContext } from '../testing/test-context'
import { makeBuilders } from '../testing/fixture-builders'
import { writeFixture } from '../store/fixture'
import type { Project } from '../core/schema'
import { shareHandlers } from './share-handlers'
import { createOperations } from './operations'
import type { Progress } from '../core/progress'
import { longSessionFile } from '../share/testing/long-transcript'

const KEY = 'my-self-hosted-key-0987654321'

async function setup() {
  const { context } = makeTestContext()
  const project = await ensureDefaultProject(context)
  const build = makeBuilders()
  const session = build.session({ projectID: project.id, title: 'Share me' })
  const user = build.user(session.id)
  const assistant = build.assistant(session.id, user.id)
  await writeFixture(context, {
    sessions: [session],
    messages: [user, assistant],
    parts: [build.text(user, `connect with ${KEY}`), build.text(assistant, 'Connected.')],
  })
  await context.db.providers.add({ id: 'prv_local', type: 'openai-compatible', name: 'Local', apiKey: KEY, models: [], time: { created: 1, updated: 1 } })
  const created: string[] = []
  const operations = createOperations()
  const handlers = shareHandlers(
    () => context,
    () => project.id,
    async ({ name }) => {
      created.push(name)
      const row: Project = { id: `prj_new${created.length}`, name, directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } }
      return { project: row, files: [], blobs: [] }
    },
    operations,
  )
  return { context, handlers, session, project, operations }
}

describe('share handlers', () => {
  test('a link made from a stored session opens as a read-only copy, the stored key redacted', async () => {
    const { handlers, session, context } = await setup()
    const preview = await handlers.previewShareLink({ sessionID: session.id, base: 'https://tabcode.example/' })
    expect(preview.redactions.map((item) => item.kind)).toEqual(['stored provider key'])
    expect(preview.comfortable).toBe(32 * 1024)
    const link = await handlers.createShareLink({ sessionID: session.id, base: 'https://tabcode.example/#/session/x' })
    expect(link.url).not.toContain('#/session/x')
    expect(link.chars).toBe(preview.chars)
    expect(await handlers.inspectShareLink(link.url)).toEqual({ encrypted: false, version: 1 })
    const opened = await handlers.openShareLink({ link: link.url })
    expect(opened.kind === 'session' && opened.session.metadata?.import).toMatchObject({ source: 'link' })
    const parts = await context.db.parts.where('sessionID').equals(opened.kind === 'session' ? opened.session.id : '').toArray()
    expect(JSON.stringify(parts)).not.toContain(KEY)
  })

  test('a session file and a backup come back through importFile', async () => {
    const { handlers, session } = await setup()
    const file = await handlers.exportSession({ sessionID: session.id })
    expect(file.fileName).toMatch(/^share-me-\d{4}-\d{2}-\d{2}\.tabcode\.json$/)
    const text = await file.data.text()
    expect(text).not.toContain(KEY)
    expect(await handlers.importFile({ data: text })).toMatchObject({ kind: 'session', duplicate: false })
    const backup = await handlers.exportBackup()
    expect(await backup.data.text()).not.toContain(KEY)
    // Everything in the backup is still here, so restoring it adds nothing.
    expect(await handlers.importFile({ data: new Uint8Array(await backup.data.arrayBuffer()) })).toMatchObject({ kind: 'backup', imported: [], skipped: 2 })
  })

  test('an import the page cancels by its id stops, stores nothing and says so; its progress reached the page until then', async () => {
    const { handlers, operations, context } = await setup()
    const before = await context.db.messages.count()
    const seen: Progress[] = []
    const importing = handlers.importFile({ data: longSessionFile(3), operationID: 'op_import' }, (progress) => {
      seen.push(progress)
      if (progress.type === 'count') operations.cancel('op_import')
    })
    await expect(importing).rejects.toMatchObject({ name: 'CancelledError', message: 'The import was cancelled.' })
    expect(seen).toEqual([{ type: 'working' }, { type: 'count', unit: 'messages', done: 0, total: 300 }])
    expect(await context.db.messages.count()).toBe(before)
  })

  test('a backup reports its sessions, messages and parts, each count ending at its total', async () => {
    const { handlers } = await setup()
    const seen: Progress[] = []
    await handlers.exportBackup({ operationID: 'op_backup' }, (progress) => seen.push(progress))
    const last = (unit: string) => seen.filter((progress) => progress.type === 'count' && progress.unit === unit).at(-1)
    expect(last('sessions')).toEqual({ type: 'count', unit: 'sessions', done: 1, total: 1 })
    expect(last('messages')).toEqual({ type: 'count', unit: 'messages', done: 2, total: 2 })
    expect(last('parts')).toEqual({ type: 'count', unit: 'parts', done: 2, total: 2 })
  })

  test('a backup cancelled while it runs hands back nothing', async () => {
    const { handlers, operations } = await setup()
    const exporting = handlers.exportBackup({ operationID: 'op_backup' }, (progress) => {
      if (progress.type === 'count' && progress.unit === 'messages') operations.cancel('op_backup')
    })
    await expect(exporting).rejects.toMatchObject({ name: 'CancelledError' })
  })
})
