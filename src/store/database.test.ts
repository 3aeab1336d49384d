import Dexie from 'dexie'
import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { SCHEMA_VERSION, SCHEMA_VERSIONS, TabcodeDatabase } from './database'
import { backfillState, runSearchBackfill } from './search-backfill'
import { searchSessions } from './search'
import { ProjectSchema } from '../core/schema'
import type { SyncOutboxMark } from '../core/sync-state'

/** A project the app made first, as version 7 upgrades it: the user's own. */
const ownProject = <T extends { time: { created: number } }>(project: T) => ({ ...project, origin: { type: 'empty' }, trust: { type: 'trusted', time: project.time.created } })

/** A project row as builds before version 7 stored it: no origin, no trust. */
const oldProject = (id: string) => ({ id, name: 'P', directory: '/workspace', time: { created: 1, updated: 1 } })

/**
 * A database as a build at `version` left it (its schema steps up to there, holding `rows` by table), then opened as
 * today's, which runs every upgrade since. The caller closes it.
 */
async function upgradeFrom(version: number, rows: Record<string, unknown[]>): Promise<TabcodeDatabase> {
  const name = `upgrade-${crypto.randomUUID()}`
  const old = new Dexie(name)
  for (const [step, stores] of Object.entries(SCHEMA_VERSIONS)) if (Number(step) <= version) old.version(Number(step)).stores(stores)
  await old.open()
  for (const [table, list] of Object.entries(rows)) await old.table(table).bulkAdd(list)
  old.close()
  const db = new TabcodeDatabase(name)
  await db.open()
  return db
}

function shapeOf(db: Dexie) {
  return db.tables
    .map((table) => ({
      name: table.name,
      primaryKey: table.schema.primKey.src,
      indexes: table.schema.indexes.map((index) => index.src).sort(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

describe('database schema', () => {
  // If this test fails you changed what is stored in users' browsers. Add a new version step with an upgrade and
  // an upgrade test instead of editing an existing one, then extend this snapshot.
  // Version 5 may come from another change; the pin accepts the steps this one declares.
  it('is pinned at version 11', async () => {
    const db = new TabcodeDatabase(`schema-${crypto.randomUUID()}`)
    await db.open()
    expect(SCHEMA_VERSION).toBe(11)
    expect(db.verno).toBe(11)
    expect(Object.keys(SCHEMA_VERSIONS).map(Number).filter((version) => version !== 5)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10, 11])
    expect(shapeOf(db)).toEqual([
      { name: 'approvals', primaryKey: 'id', indexes: ['projectID'] },
      { name: 'asks', primaryKey: 'id', indexes: ['sessionID'] },
      { name: 'blobs', primaryKey: 'hash', indexes: [] },
      { name: 'files', primaryKey: '[projectID+path]', indexes: ['projectID'] },
      { name: 'folders', primaryKey: 'projectID', indexes: [] },
      { name: 'inbox', primaryKey: 'id', indexes: ['sessionID'] },
      { name: 'messages', primaryKey: 'id', indexes: ['[sessionID+role+time.created+id]', '[sessionID+time.created+id]'] },
      { name: 'outputs', primaryKey: 'id', indexes: ['sessionID'] },
      { name: 'parts', primaryKey: 'id', indexes: ['messageID', 'sessionID'] },
      { name: 'projects', primaryKey: 'id', indexes: ['time.updated'] },
      { name: 'providers', primaryKey: 'id', indexes: [] },
      { name: 'searchIndex', primaryKey: 'partID', indexes: ['*words', 'sessionID'] },
      { name: 'searchMeta', primaryKey: 'key', indexes: [] },
      {
        name: 'sessions',
        primaryKey: 'id',
        indexes: ['[projectID+time.updated+id]', '[time.updated+id]', 'fork.sessionID', 'parentID'],
      },
      { name: 'settings', primaryKey: 'key', indexes: [] },
      { name: 'snapshots', primaryKey: 'id', indexes: ['projectID'] },
      { name: 'syncDocs', primaryKey: 'id', indexes: ['local'] },
      { name: 'syncMeta', primaryKey: 'key', indexes: [] },
      { name: 'syncOutbox', primaryKey: 'id', indexes: [] },
      { name: 'todos', primaryKey: 'sessionID', indexes: [] },
    ])
    db.close()
  })

  it('upgrades a version 1 database without losing a row', async () => {
    const build = makeBuilders()
    const sessions = Array.from({ length: 20 }, () => build.session())
    const messages = sessions.flatMap((session) => {
      const user = build.user(session.id)
      return [user, build.assistant(session.id, user.id)]
    })
    const parts = messages.flatMap((message) => [build.text(message, `text of ${message.id}`), build.stepFinish(message, 0.01, 10, 5)])
    const project = oldProject('prj_1')

    const db = await upgradeFrom(1, { projects: [project], sessions, messages, parts })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.projects.toArray()).toEqual([ownProject(project)])
    expect(await db.sessions.orderBy('id').toArray()).toEqual([...sessions].sort((a, b) => (a.id < b.id ? -1 : 1)))
    expect(await db.messages.orderBy('id').toArray()).toEqual(messages)
    expect(await db.parts.orderBy('id').toArray()).toEqual(parts)
    expect(await db.providers.count()).toBe(0)
    await db.settings.put({ key: 'retry.limit', value: 3 })
    expect(await db.settings.get('retry.limit')).toEqual({ key: 'retry.limit', value: 3 })
    db.close()
  })

  it('upgrades a version 2 database without losing a row', async () => {
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    const project = oldProject(session.projectID)
    const provider = { id: 'prv_1', type: 'openai-compatible', name: 'Local', baseURL: 'http://localhost:11434/v1', models: [] }
    const todo = { sessionID: session.id, items: [], time: { updated: 1 } }

    const db = await upgradeFrom(2, {
      projects: [project],
      sessions: [session],
      messages: [user],
      parts: [build.text(user, 'hello')],
      providers: [provider],
      settings: [{ key: 'retry.limit', value: 2 }],
      todos: [todo],
    })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.projects.toArray()).toEqual([ownProject(project)])
    expect(await db.sessions.toArray()).toEqual([session])
    expect(await db.messages.toArray()).toEqual([user])
    expect(await db.parts.count()).toBe(1)
    expect(await db.providers.toArray()).toEqual([provider])
    expect(await db.settings.toArray()).toEqual([{ key: 'retry.limit', value: 2 }])
    expect(await db.todos.toArray()).toEqual([todo])
    await db.files.put({ type: 'file', projectID: project.id, path: '/workspace/a.txt', hash: 'h', size: 1, modified: 1 })
    expect(await db.files.where('projectID').equals(project.id).count()).toBe(1)
    db.close()
  })

  it('upgrades a version 3 database without losing a row, and finds forks by their origin', async () => {
    const build = makeBuilders()
    const origin = build.session()
    const user = build.user(origin.id)
    const reply = build.assistant(origin.id, user.id)
    const child = build.session({ parentID: origin.id })
    // A version 3 row could not carry `fork`; a later build may have written one before this upgrade ran.
    const fork = build.session({ title: 'Fork (fork #1)', fork: { sessionID: origin.id, messageID: reply.id } })
    const project = oldProject(origin.projectID)
    const file = { type: 'file', projectID: project.id, path: '/workspace/a.txt', hash: 'h1', size: 1, modified: 1 }
    const blob = { hash: 'h1', data: new Uint8Array([97]), size: 1 }
    const snapshot = { id: 's1', projectID: project.id, files: { 'a.txt': 'h1' }, time: { created: 1 } }
    const approval = { id: 'apr_1', projectID: project.id, permission: 'bash', pattern: 'ls *', action: 'allow', time: { created: 1 } }
    const ask = {
      id: 'per_1',
      sessionID: origin.id,
      projectID: project.id,
      messageID: reply.id,
      permission: 'bash',
      patterns: ['ls'],
      always: ['ls *'],
      metadata: {},
      time: { created: 1 },
    }
    const output = { id: 'tool_1', sessionID: origin.id, messageID: reply.id, partID: 'prt_1', text: 'long', time: { created: 1 } }
    const queued = { id: 'inp_1', sessionID: origin.id, parts: [{ type: 'text', text: 'later' }], time: { created: 1 } }

    const db = await upgradeFrom(3, {
      projects: [project],
      sessions: [origin, child, fork],
      messages: [user, reply],
      parts: [build.text(user, 'hello'), build.text(reply, 'hi')],
      files: [file],
      blobs: [blob],
      snapshots: [snapshot],
      approvals: [approval],
      asks: [ask],
      outputs: [output],
      inbox: [queued],
    })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.projects.toArray()).toEqual([ownProject(project)])
    expect(await db.sessions.orderBy('id').toArray()).toEqual([origin, child, fork].sort((a, b) => (a.id < b.id ? -1 : 1)))
    expect(await db.messages.orderBy('id').toArray()).toEqual([user, reply])
    expect(await db.parts.count()).toBe(2)
    expect(await db.files.toArray()).toEqual([file])
    expect(await db.blobs.toArray()).toEqual([blob])
    expect(await db.snapshots.toArray()).toEqual([snapshot])
    expect(await db.approvals.toArray()).toEqual([approval])
    expect(await db.asks.toArray()).toEqual([ask])
    expect(await db.outputs.toArray()).toEqual([output])
    expect(await db.inbox.toArray()).toEqual([queued])
    expect(await db.sessions.where('parentID').equals(origin.id).primaryKeys()).toEqual([child.id])
    expect(await db.sessions.where('fork.sessionID').equals(origin.id).primaryKeys()).toEqual([fork.id])
    db.close()
  })

  it('upgrades a version 4 database without losing a row, and search finds its text before and after the backfill', async () => {
    const build = makeBuilders()
    const session = build.session({ title: 'Old work' })
    const messages = Array.from({ length: 30 }, () => build.user(session.id))
    const parts = messages.map((message, at) => build.text(message, at === 3 ? 'the marmalade lexer stalls' : `plain message ${at}`))
    const project = oldProject(session.projectID)

    const db = await upgradeFrom(4, { projects: [project], sessions: [session], messages, parts })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.sessions.toArray()).toEqual([session])
    expect(await db.messages.orderBy('id').toArray()).toEqual(messages)
    expect(await db.parts.orderBy('id').toArray()).toEqual(parts)
    // The upgrade indexed nothing (opening stays instant): search scans what the backfill has not reached.
    expect(await db.searchIndex.count()).toBe(0)
    const context = { db, now: () => 1, emit: () => {}, version: 'test' }
    const find = async () => (await searchSessions(context, { query: 'marmalade' })).map((hit) => hit.messageID)
    expect(await find()).toEqual([messages[3]!.id])

    await runSearchBackfill(db, async () => {}, 7)
    expect(await backfillState(db)).toBeUndefined()
    expect(await db.searchIndex.count()).toBe(parts.length)
    expect(await db.parts.count()).toBe(parts.length)
    expect(await find()).toEqual([messages[3]!.id])
    db.close()
  })

  it('upgrades a version 6 database: the first project stays the user’s own, every other one waits for trust, and nothing is lost', async () => {
    const build = makeBuilders()
    const first = { id: 'prj_00000000000a0000', name: 'My project', directory: '/workspace', time: { created: 10, updated: 50 } }
    const zipped = { id: 'prj_00000000000b0000', name: 'From a zip', directory: '/workspace', time: { created: 20, updated: 20 } }
    const forked = { id: 'prj_00000000000c0000', name: 'My project (fork)', directory: '/workspace', time: { created: 30, updated: 30 } }
    const session = build.session({ projectID: zipped.id })
    const user = build.user(session.id)
    const file = { type: 'file', projectID: zipped.id, path: '/workspace/.opencode/agent/build.md', hash: 'h1', size: 1, modified: 1 }
    const approval = { id: 'apr_1', projectID: zipped.id, permission: 'bash', pattern: 'ls *', action: 'allow', time: { created: 1 } }

    const db = await upgradeFrom(6, { projects: [forked, zipped, first], sessions: [session], messages: [user], files: [file], approvals: [approval] })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.projects.orderBy('id').toArray()).toEqual([
      ownProject(first),
      { ...zipped, origin: { type: 'unknown' }, trust: { type: 'untrusted' } },
      { ...forked, origin: { type: 'unknown' }, trust: { type: 'untrusted' } },
    ])
    // Every row is one the app reads as a project now.
    for (const project of await db.projects.toArray()) expect(ProjectSchema.safeParse(project).success).toBe(true)
    expect(await db.sessions.toArray()).toEqual([session])
    expect(await db.messages.toArray()).toEqual([user])
    expect(await db.files.toArray()).toEqual([file])
    expect(await db.approvals.toArray()).toEqual([approval])
    db.close()
  })

  it('upgrades a version 7 database: projects and their files stay, and folder handles can be kept', async () => {
    const project = { id: 'prj_00000000000a0000', name: 'Stored', directory: '/workspace', origin: { type: 'zip' }, trust: { type: 'untrusted' }, time: { created: 1, updated: 1 } }
    const file = { type: 'file', projectID: project.id, path: '/workspace/a.ts', hash: 'h1', size: 1, modified: 1 }
    const db = await upgradeFrom(7, { projects: [project], files: [file] })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.projects.toArray()).toEqual([project])
    expect(await db.files.toArray()).toEqual([file])
    expect(await db.folders.count()).toBe(0)
    const folder = { type: 'folder' as const, projectID: 'prj_00000000000b0000', name: 'app', handle: { kind: 'directory', name: 'app' } as unknown as FileSystemDirectoryHandle }
    await db.folders.add(folder)
    expect(await db.folders.get(folder.projectID)).toEqual(folder)
    db.close()
  })
  it('upgrades a version 8 database: every row stays, and sync starts with nothing exchanged', async () => {
    const build = makeBuilders()
    const session = build.session()
    const db = await upgradeFrom(8, { sessions: [session] })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.sessions.toArray()).toEqual([session])
    expect(await db.syncDocs.count()).toBe(0)
    expect(await db.syncMeta.count()).toBe(0)
    const synced = { type: 'synced' as const, id: session.id, kind: 'session' as const, rev: '1-ab', digest: 'ab' }
    await db.syncDocs.put(synced)
    expect(await db.syncDocs.get(session.id)).toEqual(synced)
    db.close()
  })

  it('upgrades a version 9 database: rows and what sync exchanged stay, the outbox starts off and records only once sync is set up', async () => {
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    const synced = { type: 'synced' as const, id: session.id, kind: 'session' as const, rev: '1-ab', digest: 'ab' }
    const checkpoint = { type: 'checkpoint' as const, key: 'tabcode-1', since: '7' }
    const db = await upgradeFrom(9, { sessions: [session], syncDocs: [synced], syncMeta: [checkpoint] })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.sessions.toArray()).toEqual([session])
    expect(await db.syncDocs.toArray()).toEqual([synced])
    expect(await db.syncMeta.toArray()).toEqual([checkpoint])
    // Sync never set up here: a write records nothing.
    expect(db.outbox.live).toBe(false)
    await db.messages.put(user)
    expect(await db.syncOutbox.count()).toBe(0)
    // Set up: the next write is recorded in its own transaction, and the mark survives a reopen.
    const mark: SyncOutboxMark = { type: 'outbox', key: 'outbox', since: 1, scanned: true }
    await db.syncMeta.put(mark)
    db.close()
    const reopened = new TabcodeDatabase(db.name)
    await reopened.open()
    expect(reopened.outbox.live).toBe(true)
    await reopened.sessions.put({ ...session, title: 'Renamed' })
    expect((await reopened.syncOutbox.toArray()).map(({ table, key }) => ({ table, key }))).toEqual([{ table: 'sessions', key: session.id }])
    reopened.close()
  })
  it('upgrades a version 10 database: every message stays, and a session’s prompts are found by role, oldest first', async () => {
    const build = makeBuilders()
    const session = build.session()
    const other = build.session()
    const first = build.user(session.id)
    const reply = build.assistant(session.id, first.id)
    const second = build.user(session.id)
    const elsewhere = build.user(other.id)
    const messages = [first, reply, second, elsewhere]
    const db = await upgradeFrom(10, { sessions: [session, other], messages })
    expect(db.verno).toBe(SCHEMA_VERSION)
    expect(await db.messages.orderBy('id').toArray()).toEqual([...messages].sort((a, b) => (a.id < b.id ? -1 : 1)))
    const prompts = await db.messages
      .where('[sessionID+role+time.created+id]')
      .between([session.id, 'user', -Infinity, ''], [session.id, 'user', Infinity, '\uffff'])
      .toArray()
    expect(prompts.map((message) => message.id)).toEqual([first.id, second.id])
    db.close()
  })
})
