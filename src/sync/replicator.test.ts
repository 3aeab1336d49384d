import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Part, PartOf, SessionInfo } from '../core/schema'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import type { StoreContext } from '../store/context'
import { removeMessage } from '../store/message-store'
import { CouchDatabase } from './couch'
import { SyncPassphraseError } from './crypto'
import { replicate, unlock, type SyncKey } from './replicator'
import { startCouchServer, type CouchServer } from './testing/couch-server'

// Two devices are two fake-IndexedDB databases; the server is a real CouchDB-protocol one (PouchDB Server).
let server: CouchServer
beforeAll(async () => {
  server = await startCouchServer()
}, 30_000)
afterAll(async () => {
  await server?.stop()
})

const PASSPHRASE = 'orange kettle under the stairs'

async function newDatabase(): Promise<CouchDatabase> {
  const database = new CouchDatabase({ url: server.url, database: `sync-${crypto.randomUUID()}` })
  await database.createDatabase()
  return database
}

function sameDatabase(database: CouchDatabase, fetcher?: typeof fetch): CouchDatabase {
  return new CouchDatabase({ url: server.url, database: decodeURIComponent(database.base.split('/').pop()!), fetch: fetcher })
}

interface Device {
  context: StoreContext
  name: string
}

function device(name: string): Device {
  return { context: makeTestContext().context, name }
}

async function rows(context: StoreContext) {
  const { db } = context
  return {
    sessions: await db.sessions.orderBy('id').toArray(),
    messages: await db.messages.orderBy('id').toArray(),
    parts: await db.parts.orderBy('id').toArray(),
  }
}

async function serverDocuments(database: CouchDatabase): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${database.base}/_all_docs?include_docs=true&conflicts=true`)
  const body = (await response.json()) as { rows: Array<{ doc: Record<string, unknown> }> }
  return body.rows.map((row) => row.doc)
}

function toolPart(message: { id: string; sessionID: string }, id: string, output: string): PartOf<'tool'> {
  return {
    id,
    sessionID: message.sessionID,
    messageID: message.id,
    type: 'tool',
    callID: 'call_1',
    tool: 'read',
    state: { status: 'completed', input: { path: 'notes/plan.md' }, output, title: 'notes/plan.md', metadata: {}, time: { start: 1, end: 2 } },
  }
}

/** A session with a prompt, an answer whose text has ended, a file read, and a text part still streaming. */
function history(build = makeBuilders()) {
  const session = build.session({ title: 'Migrate the billing service' })
  const user = build.user(session.id)
  const assistant = build.assistant(session.id, user.id)
  const prompt = build.text(user, 'Please move invoices to the new ledger')
  const answer = { ...build.text(assistant, 'Invoices now post to the ledger'), time: { start: 1, end: 2 } }
  const read = toolPart(assistant, build.ids.ascending('part', build.now() + 1), 'SECRET-FILE-CONTENT: ledger_key = 42')
  const streaming: Part = { ...build.text(assistant, 'Still typ'), time: { start: 3 } }
  return { build, session, messages: [user, assistant], parts: [prompt, answer, read, streaming], streaming }
}

async function store(context: StoreContext, input: { sessions?: SessionInfo[]; messages?: unknown[]; parts?: Part[] }) {
  const { db } = context
  if (input.sessions) await db.sessions.bulkPut(input.sessions)
  if (input.messages) await db.messages.bulkPut(input.messages as never)
  if (input.parts) await db.parts.bulkPut(input.parts)
}

async function sync(target: Device, database: CouchDatabase, key: SyncKey, batch?: number) {
  return await replicate({ context: target.context, server: database, key, device: target.name, batch })
}

describe('sync between two devices through a CouchDB-protocol server', () => {
  it('brings a session, its messages and its ended parts to the second device; a streaming part follows once it ends', { timeout: 60_000 }, async () => {
    const database = await newDatabase()
    const laptop = device('laptop')
    const desktop = device('desktop')
    const made = history()
    await store(laptop.context, { sessions: [made.session], messages: made.messages, parts: made.parts })

    const laptopKey = await unlock(database, PASSPHRASE)
    expect((await sync(laptop, database, laptopKey)).pushed).toBe(6)
    const desktopKey = await unlock(sameDatabase(database), PASSPHRASE)
    await sync(desktop, database, desktopKey)

    const onLaptop = await rows(laptop.context)
    const onDesktop = await rows(desktop.context)
    expect(onDesktop.sessions).toEqual(onLaptop.sessions)
    expect(onDesktop.messages).toEqual(onLaptop.messages)
    expect(onDesktop.parts).toEqual(onLaptop.parts.filter((part) => part.id !== made.streaming.id))

    await laptop.context.db.parts.put({ ...made.streaming, text: 'Still typing, now done', time: { start: 3, end: 4 } } as Part)
    await sync(laptop, database, laptopKey)
    await sync(desktop, database, desktopKey)
    expect((await rows(desktop.context)).parts).toEqual((await rows(laptop.context)).parts)
    // A session found by the desktop's search too: pulled parts go through the same write path.
    expect(await desktop.context.db.searchIndex.get(made.parts[1]!.id)).toBeDefined()
  })

  it('leaves the server no title, message text, file content or file name in clear', { timeout: 60_000 }, async () => {
    const database = await newDatabase()
    const laptop = device('laptop')
    const made = history()
    await store(laptop.context, { sessions: [made.session], messages: made.messages, parts: made.parts })
    await sync(laptop, database, await unlock(database, PASSPHRASE))

    const documents = await serverDocuments(database)
    expect(documents.length).toBe(7)
    const everything = JSON.stringify(documents)
    for (const secret of ['Migrate the billing', 'billing', 'invoices', 'Invoices', 'ledger', 'SECRET-FILE-CONTENT', 'plan.md', 'gpt-test', made.session.id.replace('ses_', 'x')]) {
      expect(everything).not.toContain(secret)
    }
    // What the server does see: ids, revisions, the kind of row, and ciphertext.
    for (const document of documents.filter((document) => document._id !== 'tabcode:keycheck')) {
      expect(Object.keys(document).sort()).toEqual(['_id', '_rev', 'data', 'iv', 'kind'])
    }
    // A ciphertext moved under another id is refused rather than read as that row.
    const [first, second] = documents.filter((document) => document.kind === 'part')
    await fetch(`${database.base}/${second!._id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...second, iv: first!.iv, data: first!.data }) })
    const desktop = device('desktop')
    await expect(sync(desktop, database, await unlock(sameDatabase(database), PASSPHRASE))).rejects.toThrow(/does not decrypt/)
    // The batch holding it wrote nothing.
    expect(await rows(desktop.context)).toEqual({ sessions: [], messages: [], parts: [] })
  })

  it('refuses a wrong passphrase before it reads or writes anything', { timeout: 60_000 }, async () => {
    const database = await newDatabase()
    const laptop = device('laptop')
    const made = history()
    await store(laptop.context, { sessions: [made.session], messages: made.messages, parts: made.parts })
    await sync(laptop, database, await unlock(database, PASSPHRASE))
    const before = await serverDocuments(database)

    const phone = device('phone')
    await store(phone.context, { sessions: [makeBuilders(Date.UTC(2026, 0, 1)).session({ title: 'Phone only' })] })
    const phoneBefore = await rows(phone.context)
    await expect(unlock(sameDatabase(database), 'orange kettle under the stair')).rejects.toSatisfy((error) => SyncPassphraseError.isInstance(error))
    expect(await serverDocuments(database)).toEqual(before)
    expect(await rows(phone.context)).toEqual(phoneBefore)
    expect(await phone.context.db.syncDocs.count()).toBe(0)
  })

  it('converges when both devices worked offline on one session: every message kept, the header merged per field', { timeout: 90_000 }, async () => {
    const database = await newDatabase()
    const laptop = device('laptop')
    const desktop = device('desktop')
    const build = makeBuilders()
    const made = history(build)
    await store(laptop.context, { sessions: [made.session], messages: made.messages, parts: made.parts.slice(0, 3) })
    const laptopKey = await unlock(database, PASSPHRASE)
    const desktopKey = await unlock(sameDatabase(database), PASSPHRASE)
    await sync(laptop, database, laptopKey)
    await sync(desktop, database, desktopKey)

    // Offline: the laptop renames the session and asks one thing; the desktop archives it later and asks another.
    const session = made.session
    const onLaptop = build.user(session.id)
    const onDesktop = build.user(session.id)
    await store(laptop.context, {
      sessions: [{ ...session, title: 'Billing: ledger migration', time: { ...session.time, updated: session.time.updated + 10 } }],
      messages: [onLaptop],
      parts: [build.text(onLaptop, 'laptop question')],
    })
    await store(desktop.context, {
      sessions: [{ ...session, time: { ...session.time, updated: session.time.updated + 20, archived: session.time.updated + 20 } }],
      messages: [onDesktop],
      parts: [build.text(onDesktop, 'desktop question')],
    })

    // Both reconnect at once: the desktop has pulled (nothing new yet) when the laptop's push lands, so its own push
    // makes the session's revisions conflict on the server.
    let laptopDone: () => void = () => {}
    const landed = new Promise<void>((done) => (laptopDone = done))
    const late: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/_revs_diff')) await landed
      return await fetch(input, init)
    }
    await Promise.all([sync(laptop, database, laptopKey).then(laptopDone), sync(desktop, sameDatabase(database, late), desktopKey)])
    expect((await serverDocuments(database)).find((document) => document._id === session.id)?._conflicts).toHaveLength(1)
    for (let round = 0; round < 2; round += 1) {
      await sync(laptop, database, laptopKey)
      await sync(desktop, database, desktopKey)
    }

    const left = await rows(laptop.context)
    const right = await rows(desktop.context)
    expect(right).toEqual(left)
    expect(left.messages.map((message) => message.id)).toEqual([...made.messages, onLaptop, onDesktop].map((message) => message.id).sort())
    expect(left.parts.map((part) => (part.type === 'text' ? part.text : part.type))).toEqual(
      expect.arrayContaining(['laptop question', 'desktop question', 'Invoices now post to the ledger', 'tool']),
    )
    // The header took the laptop's title and the desktop's later archive.
    expect(left.sessions).toHaveLength(1)
    expect(left.sessions[0]!.title).toBe('Billing: ledger migration')
    expect(left.sessions[0]!.time.archived).toBe(session.time.updated + 20)
    // No conflict is left open on the server.
    for (const document of await serverDocuments(database)) expect(document._conflicts).toBeUndefined()
  })

  it('resumes a pull cut off mid-way from its checkpoint, and a cut-off push, with nothing lost or doubled', { timeout: 90_000 }, async () => {
    const database = await newDatabase()
    const laptop = device('laptop')
    const build = makeBuilders()
    const session = build.session({ title: 'Long one' })
    const messages = Array.from({ length: 6 }, () => build.user(session.id))
    const parts = messages.map((message, index) => build.text(message, `prompt ${index}`))
    await store(laptop.context, { sessions: [session], messages, parts })
    const laptopKey = await unlock(database, PASSPHRASE)

    // The laptop's push breaks after its first batch reached the server.
    let bulkDocs = 0
    const breakingPush: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/_bulk_docs') && ++bulkDocs === 2) throw new TypeError('network down')
      return await fetch(input, init)
    }
    await expect(sync(laptop, sameDatabase(database, breakingPush), laptopKey, 4)).rejects.toThrow(/could not be reached/)
    const pushedFirst = (await serverDocuments(database)).length - 1
    expect(pushedFirst).toBe(4)
    const resumedPush = await sync(laptop, database, laptopKey, 4)
    expect(resumedPush.pushed).toBe(13 - pushedFirst)
    expect((await serverDocuments(database)).length).toBe(14)

    // The desktop's pull breaks after two batches were written.
    const desktop = device('desktop')
    const desktopKey = await unlock(sameDatabase(database), PASSPHRASE)
    let changes = 0
    const breakingPull: typeof fetch = async (input, init) => {
      if (String(input).includes('/_changes?') && ++changes === 3) throw new TypeError('network down')
      return await fetch(input, init)
    }
    await expect(sync(desktop, sameDatabase(database, breakingPull), desktopKey, 4)).rejects.toThrow(/could not be reached/)
    const partial = await rows(desktop.context)
    const heldAfterCut = partial.sessions.length + partial.messages.length + partial.parts.length
    expect(heldAfterCut).toBeGreaterThan(0)
    expect(heldAfterCut).toBeLessThan(13)

    const asked: string[] = []
    const recording: typeof fetch = async (input, init) => {
      const url = String(input)
      if (url.includes('/_changes?')) asked.push(new URL(url).searchParams.get('since')!)
      return await fetch(input, init)
    }
    const resumed = await sync(desktop, sameDatabase(database, recording), desktopKey, 4)
    // It started where the cut left it, not from the beginning, and fetched only what it lacked.
    expect(asked[0]).not.toBe('0')
    expect(resumed.pulled).toBe(13 - heldAfterCut)
    expect(resumed.pushed).toBe(0)
    expect(await rows(desktop.context)).toEqual(await rows(laptop.context))
    const documents = await serverDocuments(database)
    expect(documents.length).toBe(14)
    for (const document of documents) expect(document._conflicts).toBeUndefined()
  })
  it('carries a deletion to the other device as a tombstone with no content', { timeout: 60_000 }, async () => {
    const database = await newDatabase()
    const laptop = device('laptop')
    const desktop = device('desktop')
    const made = history()
    await store(laptop.context, { sessions: [made.session], messages: made.messages, parts: made.parts })
    const laptopKey = await unlock(database, PASSPHRASE)
    const desktopKey = await unlock(sameDatabase(database), PASSPHRASE)
    await sync(laptop, database, laptopKey)
    await sync(desktop, database, desktopKey)
    const [user] = made.messages

    await removeMessage(laptop.context, user!.id)
    await sync(laptop, database, laptopKey)
    await sync(desktop, database, desktopKey)

    const onDesktop = await rows(desktop.context)
    expect(onDesktop.messages.map((message) => message.id)).toEqual([made.messages[1]!.id])
    expect(onDesktop.parts.some((part) => part.messageID === user!.id)).toBe(false)
    const onLaptop = await rows(laptop.context)
    expect(onDesktop.sessions).toEqual(onLaptop.sessions)
    // The laptop's streaming part stays there until it ends.
    expect(onDesktop.parts).toEqual(onLaptop.parts.filter((part) => part.id !== made.streaming.id))
    // A message's document id is its session's group, then its id.
    const feed = (await fetch(`${database.base}/_changes`).then((response) => response.json())) as { results: Array<{ id: string }> }
    const documentId = feed.results.map((change) => change.id).find((id) => id.endsWith(`:${user!.id}`))!
    expect(documentId).toMatch(/^grp_[0-9a-f]{32}:msg_/)
    const tombstone = (await fetch(`${database.base}/${encodeURIComponent(documentId)}?revs_info=true&open_revs=all`, { headers: { accept: 'application/json' } }).then((response) => response.json())) as Array<{ ok: Record<string, unknown> }>
    expect(tombstone.map(({ ok }) => ({ deleted: ok._deleted, keys: Object.keys(ok).filter((key) => !key.startsWith('_')) }))).toEqual([{ deleted: true, keys: ['kind'] }])
  })

  it('lets two devices set up one database at the same moment: one key check wins and both use it', { timeout: 60_000 }, async () => {
    const database = await newDatabase()
    const laptop = device('laptop')
    const desktop = device('desktop')
    const made = history()
    await store(laptop.context, { sessions: [made.session], messages: made.messages, parts: made.parts })
    const [laptopKey, desktopKey] = await Promise.all([unlock(database, PASSPHRASE), unlock(sameDatabase(database), PASSPHRASE)])
    await sync(laptop, database, laptopKey)
    await sync(desktop, database, desktopKey)
    expect((await rows(desktop.context)).sessions).toEqual([made.session])
  })
  it('tests a connection: a missing database the user may create, a ready one, an unreachable server', { timeout: 30_000 }, async () => {
    const database = new CouchDatabase({ url: server.url, database: `sync-${crypto.randomUUID()}` })
    // PouchDB Server runs as an "admin party": everyone may create databases.
    expect(await database.probe()).toEqual({ type: 'missing', mayCreate: true })
    await expect(unlock(database, PASSPHRASE)).rejects.toThrow(/does not exist/)
    await database.createDatabase()
    expect(await database.probe()).toEqual({ type: 'ready' })
    const nowhere = new CouchDatabase({ url: 'http://127.0.0.1:9', database: 'sync' })
    expect(await nowhere.probe()).toMatchObject({ type: 'unreachable' })
  })
})
