import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProviderConfig } from '../core/provider/schema'
import type { Approval, Project } from '../core/schema'
import { makeBuilders } from '../testing/fixture-builders'
import { createDexieStorage } from '../store/dexie-storage'
import { setOutboxRecording } from '../store/sync-rows'
import { open, sha256 } from './crypto'
import { unlock, type SyncKey, type SyncProgress } from './replicator'
import { startCouchServer, type CouchServer } from './testing/couch-server'
import { device, newDatabase, PASSPHRASE, sameDatabase, serverDocuments, sync, type Device } from './testing/two-devices'

// Projects, their files, approvals, settings and providers between two devices through a real CouchDB-protocol
// server (PouchDB Server); on-demand devices; an aborted round (issue 31).
let server: CouchServer
beforeAll(async () => {
  server = await startCouchServer()
}, 30_000)
afterAll(async () => {
  await server?.stop()
})

const bytes = (text: string) => new TextEncoder().encode(text)

function project(build: ReturnType<typeof makeBuilders>, name: string, origin: Project['origin'] = { type: 'empty' }): Project {
  const now = build.now()
  return { id: build.ids.ascending('project', now), name, directory: '/workspace', origin, trust: { type: 'trusted', time: now }, time: { created: now, updated: now } }
}

/** Writes files the way the stored workspace does (its storage's commit: blobs, then file rows). */
async function writeFiles(target: Device, projectID: string, files: Record<string, string>) {
  const blobs = await Promise.all(Object.values(files).map(async (content) => ({ hash: await sha256(content), data: bytes(content) })))
  const put = await Promise.all(
    Object.entries(files).map(async ([path, content]) => ({ type: 'file' as const, path, hash: await sha256(content), size: bytes(content).length, modified: 5 })),
  )
  await createDexieStorage(target.context.db, projectID).commit({ blobs, remove: [], put: [{ type: 'directory', path: '/workspace/notes', modified: 5 }, ...put] })
}

/** Every document's content as this test's key opens it. */
async function decrypted(database: Awaited<ReturnType<typeof newDatabase>>, key: SyncKey): Promise<string> {
  const opened: string[] = []
  for (const document of await serverDocuments(database)) {
    if (typeof document.data !== 'string') continue
    opened.push(await open(key.key, document._id as string, document as { iv: string; data: string }))
  }
  return opened.join('\n')
}

describe('sync of projects, files and settings', () => {
  it('brings a project, its files and their contents (each stored once), approvals and agent settings; the server learns no file name or content', { timeout: 90_000 }, async () => {
    const database = await newDatabase(server)
    const laptop = device('laptop')
    const desktop = device('desktop')
    const build = makeBuilders()
    const billing = project(build, 'Billing service')
    await laptop.context.db.projects.put(billing)
    await writeFiles(laptop, billing.id, { '/workspace/notes/secret-plan.md': 'TOP-SECRET-CONTENT: raise prices', '/workspace/copy-of-plan.md': 'TOP-SECRET-CONTENT: raise prices' })
    const approval: Approval = { id: build.ids.ascending('approval', build.now()), projectID: billing.id, permission: 'bash', pattern: 'npm test*', action: 'allow', time: { created: 3 } }
    await laptop.context.db.approvals.put(approval)
    await laptop.context.db.settings.bulkPut([
      { key: 'agents', value: { build: { temperature: 0.2 } } },
      { key: 'compaction.auto', value: false },
      { key: 'compaction.tailTurns', value: 4 },
      // This machine's own: they stay here.
      { key: 'python.packages', value: ['numpy'] },
      { key: 'project.current', value: billing.id },
      { key: 'workspace.backend', value: 'local' },
      { key: 'notifications', value: { enabled: true, turnEnded: true, waiting: true, error: true } },
    ])

    const laptopKey = await unlock(database, PASSPHRASE)
    await sync(laptop, database, laptopKey)
    await sync(desktop, database, await unlock(sameDatabase(server, database), PASSPHRASE))

    const { db } = desktop.context
    expect(await db.projects.toArray()).toEqual([billing])
    expect(await db.files.orderBy('[projectID+path]').toArray()).toEqual(await laptop.context.db.files.orderBy('[projectID+path]').toArray())
    const [blob] = await db.blobs.toArray()
    expect(new TextDecoder().decode(blob!.data)).toBe('TOP-SECRET-CONTENT: raise prices')
    expect(await db.approvals.toArray()).toEqual([approval])
    expect(new Map((await db.settings.toArray()).map((row) => [row.key, row.value]))).toEqual(
      new Map<string, unknown>([
        ['agents', { build: { temperature: 0.2 } }],
        ['compaction.auto', false],
        ['compaction.tailTurns', 4],
      ]),
    )
    // A pulled file is a row write, as an import makes one: the tabs hear it.
    expect(desktop.events).toEqual(expect.arrayContaining([{ type: 'workspace.changed', projectID: billing.id, change: { type: 'write', path: '/workspace/notes/secret-plan.md' } }]))
    expect(desktop.events).toEqual(expect.arrayContaining([{ type: 'approval.updated', projectID: billing.id, approvals: [approval] }]))

    const documents = await serverDocuments(database)
    // Two files, one content: one blob document.
    expect(documents.filter((document) => document.kind === 'blob')).toHaveLength(1)
    expect(documents.filter((document) => document.kind === 'file')).toHaveLength(3)
    const everything = JSON.stringify(documents)
    const contentHash = await sha256('TOP-SECRET-CONTENT: raise prices')
    for (const secret of ['secret-plan', 'copy-of-plan', 'notes', '/workspace', 'TOP-SECRET', 'raise prices', contentHash, contentHash.slice(0, 32), 'Billing', 'npm test', 'temperature', 'agents', 'compaction', billing.id.replace('prj_', 'x')]) {
      expect(everything).not.toContain(secret)
    }
    for (const document of documents.filter((document) => document.kind === 'file' || document.kind === 'blob' || document.kind === 'setting')) {
      expect(document._id).toMatch(/^(fil|blb|set)_[0-9a-f]{32}$/)
    }

    // A file removed on the laptop goes on the desktop; the content another file still holds stays.
    await createDexieStorage(laptop.context.db, billing.id).commit({ blobs: [], remove: ['/workspace/copy-of-plan.md'], put: [] })
    expect((await sync(laptop, database, laptopKey)).pushed).toBe(1)
    await sync(desktop, database, await unlock(sameDatabase(server, database), PASSPHRASE))
    expect((await db.files.toArray()).map((file) => file.path).sort()).toEqual(['/workspace/notes', '/workspace/notes/secret-plan.md'])
    expect(await db.blobs.count()).toBe(1)
  })

  it('keeps provider keys and MCP secrets off the server unless told; a pulled provider without a key keeps the one here', { timeout: 90_000 }, async () => {
    const database = await newDatabase(server)
    const laptop = device('laptop')
    const desktop = device('desktop')
    const build = makeBuilders()
    const provider: ProviderConfig = { id: build.ids.ascending('provider', build.now()), type: 'openai', name: 'OpenAI', apiKey: 'sk-LAPTOP-KEY', models: [], time: { created: 1, updated: 1 } }
    await laptop.context.db.providers.put(provider)
    await laptop.context.db.settings.bulkPut([
      { key: 'mcp.servers', value: [{ type: 'remote', name: 'docs', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer MCP-HEADER-TOKEN' }], enabled: true }] },
      { key: 'mcp.oauth', value: { docs: { type: 'mcp-oauth', url: 'https://mcp.example/mcp', tokens: { access_token: 'MCP-OAUTH-TOKEN' } } } },
      { key: 'git.tokens', value: { 'github.com': 'GIT-TOKEN' } },
    ])
    const laptopKey = await unlock(database, PASSPHRASE)
    const desktopKey = await unlock(sameDatabase(server, database), PASSPHRASE)
    await sync(laptop, database, laptopKey)

    // Not even encrypted: the test opens every document with the key.
    const sealed = await decrypted(database, laptopKey)
    expect(sealed).toContain('mcp.example')
    for (const secret of ['sk-LAPTOP-KEY', 'MCP-HEADER-TOKEN', 'MCP-OAUTH-TOKEN', 'GIT-TOKEN', 'mcp.oauth', 'git.tokens']) expect(sealed).not.toContain(secret)

    await sync(desktop, database, desktopKey)
    expect(await desktop.context.db.providers.get(provider.id)).toEqual({ ...provider, apiKey: undefined })
    // The desktop's user types their own key; it has nothing to send (the key does not travel).
    await desktop.context.db.providers.put({ ...provider, apiKey: 'sk-DESKTOP-KEY' })
    await desktop.context.db.settings.put({ key: 'mcp.servers', value: [{ type: 'remote', name: 'docs', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer DESKTOP-TOKEN' }], enabled: true }] })
    expect((await sync(desktop, database, desktopKey)).pushed).toBe(0)
    // The laptop renames the provider and turns the server off: the desktop takes both and keeps its own secrets.
    await laptop.context.db.providers.put({ ...provider, name: 'OpenAI (work)', time: { created: 1, updated: 2 } })
    await laptop.context.db.settings.put({ key: 'mcp.servers', value: [{ type: 'remote', name: 'docs', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer MCP-HEADER-TOKEN' }], enabled: false }] })
    await sync(laptop, database, laptopKey)
    await sync(desktop, database, desktopKey)
    expect(await desktop.context.db.providers.get(provider.id)).toMatchObject({ name: 'OpenAI (work)', apiKey: 'sk-DESKTOP-KEY' })
    expect((await desktop.context.db.settings.get('mcp.servers'))?.value).toEqual([
      { type: 'remote', name: 'docs', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer DESKTOP-TOKEN' }], enabled: false },
    ])
    expect(await desktop.context.db.settings.get('mcp.oauth')).toBeUndefined()

    // The user ticks the box on both devices: the secrets travel, sealed like everything else.
    await setOutboxRecording(laptop.context, true)
    await sync(laptop, database, laptopKey, { secrets: true })
    const withSecrets = await decrypted(database, laptopKey)
    for (const secret of ['sk-LAPTOP-KEY', 'MCP-HEADER-TOKEN', 'MCP-OAUTH-TOKEN', 'GIT-TOKEN']) expect(withSecrets).toContain(secret)
    expect(JSON.stringify(await serverDocuments(database))).not.toMatch(/sk-LAPTOP-KEY|MCP-OAUTH-TOKEN|GIT-TOKEN/)
    await sync(desktop, database, desktopKey, { secrets: true })
    expect((await desktop.context.db.settings.get('mcp.oauth'))?.value).toEqual({ docs: { type: 'mcp-oauth', url: 'https://mcp.example/mcp', tokens: { access_token: 'MCP-OAUTH-TOKEN' } } })
    expect((await desktop.context.db.settings.get('git.tokens'))?.value).toEqual({ 'github.com': 'GIT-TOKEN' })
  })

  it('gives an on-demand device the session list first, then one session with every message, those from before included', { timeout: 90_000 }, async () => {
    const database = await newDatabase(server)
    const laptop = device('laptop')
    const phone = device('phone')
    const build = makeBuilders()
    const first = build.session({ title: 'First' })
    const second = build.session({ title: 'Second' })
    const firstMessages = [build.user(first.id), build.user(first.id)]
    const secondMessages = [build.user(second.id)]
    await laptop.context.db.sessions.bulkPut([first, second])
    await laptop.context.db.messages.bulkPut([...firstMessages, ...secondMessages])
    await laptop.context.db.parts.bulkPut([...firstMessages, ...secondMessages].map((message) => build.text(message, `about ${message.id}`)))
    const laptopKey = await unlock(database, PASSPHRASE)
    const phoneKey = await unlock(sameDatabase(server, database), PASSPHRASE)
    await sync(laptop, database, laptopKey)

    await sync(phone, database, phoneKey, { scope: { type: 'sessions' } })
    expect((await phone.context.db.sessions.toArray()).map((session) => session.title).sort()).toEqual(['First', 'Second'])
    expect(await phone.context.db.messages.count()).toBe(0)
    expect(await phone.context.db.parts.count()).toBe(0)

    // A message arrives for the first session before the phone opens it; the session-list pull passes over it too.
    const late = build.user(first.id)
    await laptop.context.db.messages.put(late)
    await sync(laptop, database, laptopKey)
    await sync(phone, database, phoneKey, { scope: { type: 'sessions' } })
    expect(await phone.context.db.messages.count()).toBe(0)

    // The user opens the first session: all of it comes, nothing of the second.
    const fetched = await sync(phone, database, phoneKey, { scope: { type: 'session', sessionID: first.id } })
    expect(fetched.pulled).toBe(5)
    expect((await phone.context.db.messages.orderBy('id').toArray())).toEqual([...firstMessages, late])
    expect(await phone.context.db.parts.where('sessionID').equals(second.id).count()).toBe(0)

    // From now on the session-list pull follows the opened session, and only it.
    const later = build.user(first.id)
    const elsewhere = build.user(second.id)
    await laptop.context.db.messages.bulkPut([later, elsewhere])
    await sync(laptop, database, laptopKey)
    await sync(phone, database, phoneKey, { scope: { type: 'sessions' } })
    expect((await phone.context.db.messages.orderBy('id').toArray()).map((message) => message.id)).toEqual([...firstMessages, late, later].map((message) => message.id))

    // The server sees which documents belong together, not which session that is.
    const ids = (await serverDocuments(database)).map((document) => document._id as string)
    const groups = new Set(ids.filter((id) => id.startsWith('grp_')).map((id) => id.slice(0, id.indexOf(':'))))
    expect(groups.size).toBe(2)
    for (const group of groups) expect(group).toMatch(/^grp_[0-9a-f]{32}$/)
    expect([...groups].join(' ')).not.toContain(first.id.slice(4))

    // Choosing "everything" later takes the rest, with nothing fetched twice.
    const everything = await sync(phone, database, phoneKey)
    expect(everything.pulled).toBe(3)
    expect(await phone.context.db.messages.count()).toBe(await laptop.context.db.messages.count())
  })

  it('stops a pull between batches when aborted, and the next round resumes with nothing lost or doubled', { timeout: 90_000 }, async () => {
    const database = await newDatabase(server)
    const laptop = device('laptop')
    const desktop = device('desktop')
    const build = makeBuilders()
    const session = build.session({ title: 'Long one' })
    const messages = Array.from({ length: 6 }, () => build.user(session.id))
    await laptop.context.db.sessions.put(session)
    await laptop.context.db.messages.bulkPut(messages)
    await laptop.context.db.parts.bulkPut(messages.map((message, index) => build.text(message, `prompt ${index}`)))
    const laptopKey = await unlock(database, PASSPHRASE)
    const pushes: SyncProgress[] = []
    await sync(laptop, database, laptopKey, { batch: 4, onProgress: (progress) => pushes.push(progress) })
    expect(pushes.filter((progress) => progress.phase === 'push').at(-1)).toEqual({ phase: 'push', done: 13, total: 13 })

    const desktopKey = await unlock(sameDatabase(server, database), PASSPHRASE)
    const controller = new AbortController()
    const seen: SyncProgress[] = []
    const round = sync(desktop, database, desktopKey, {
      batch: 4,
      signal: controller.signal,
      onProgress: (progress) => {
        seen.push(progress)
        if (seen.length === 2) controller.abort()
      },
    })
    await expect(round).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen.map((progress) => progress.done)).toEqual([4, 8])
    const { db } = desktop.context
    const held = (await db.sessions.count()) + (await db.messages.count()) + (await db.parts.count())
    expect(held).toBeGreaterThan(0)
    expect(held).toBeLessThan(13)

    const resumed = await sync(desktop, database, desktopKey, { batch: 4 })
    expect(resumed.pulled).toBe(13 - held)
    expect(resumed.pushed).toBe(0)
    expect(await db.messages.orderBy('id').toArray()).toEqual(messages)
    expect(await db.parts.count()).toBe(6)
    const documents = await serverDocuments(database)
    expect(documents).toHaveLength(14)
    for (const document of documents) expect(document._conflicts).toBeUndefined()
  })
})
