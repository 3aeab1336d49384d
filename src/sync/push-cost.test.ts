import type { DBCore, Middleware } from 'dexie'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Part } from '../core/schema'
import { makeBuilders } from '../testing/fixture-builders'
import { listSyncRows, markOutboxScanned, setOutboxRecording } from '../store/sync-rows'
import { unlock } from './replicator'
import { startCouchServer, type CouchServer } from './testing/couch-server'
import { device, newDatabase, PASSPHRASE, sync } from './testing/two-devices'

// The steady cost of sync (issue 31): pushing one turn reads that turn's rows, not the session's history.
let server: CouchServer
beforeAll(async () => {
  server = await startCouchServer()
}, 30_000)
afterAll(async () => {
  await server?.stop()
})

/** Counts the rows each table hands out (gets, bulk gets, queries) and the cursors opened on it. */
function readCounter() {
  const rows = new Map<string, number>()
  const cursors = new Map<string, number>()
  const add = (map: Map<string, number>, table: string, count: number) => map.set(table, (map.get(table) ?? 0) + count)
  const middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'readCounter',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name)
          return {
            ...table,
            get: (request) => table.get(request).then((row) => (add(rows, name, row === undefined ? 0 : 1), row)),
            getMany: (request) => table.getMany(request).then((found) => (add(rows, name, found.filter((row) => row !== undefined).length), found)),
            query: (request) => table.query(request).then((found) => (add(rows, name, found.result.length), found)),
            openCursor: (request) => (add(cursors, name, 1), table.openCursor(request)),
          }
        },
      }
    },
  }
  const total = () => [...rows.values()].reduce((sum, count) => sum + count, 0)
  return { middleware, rows, cursors, total, reset: () => (rows.clear(), cursors.clear()) }
}

describe('the cost of pushing one turn', () => {
  it('reads the turn, not a 10,000-message history', { timeout: 120_000 }, async () => {
    const laptop = device('laptop')
    const counter = readCounter()
    laptop.context.db.use(counter.middleware)
    const build = makeBuilders()
    const session = build.session({ title: 'A long history' })
    const history = Array.from({ length: 10_000 }, () => build.user(session.id))
    await laptop.context.db.sessions.put(session)
    await laptop.context.db.messages.bulkPut(history)
    // The history was exchanged before (its first push read every row once); recording runs since.
    await setOutboxRecording(laptop.context, true)
    await markOutboxScanned(laptop.context)

    // One turn: a prompt, an answer, six ended parts.
    const user = build.user(session.id)
    const assistant = build.assistant(session.id, user.id)
    const parts: Part[] = [build.text(user, 'Rename the ledger module'), ...Array.from({ length: 5 }, (_, index) => ({ ...build.text(assistant, `step ${index}`), time: { start: 1, end: 2 } }))]
    await laptop.context.db.messages.bulkPut([user, assistant])
    await laptop.context.db.parts.bulkPut(parts)
    await laptop.context.db.sessions.put({ ...session, time: { ...session.time, updated: session.time.updated + 1 } })

    const database = await newDatabase(server)
    const key = await unlock(database, PASSPHRASE)
    counter.reset()
    const round = await sync(laptop, database, key)
    expect(round.pushed).toBe(9)
    // Nine rows changed; a handful of reads each (the outbox, the rows, what was exchanged for them).
    expect(counter.total()).toBeLessThan(60)
    expect(counter.rows.get('messages') ?? 0).toBeLessThanOrEqual(2)
    expect(counter.cursors.get('messages') ?? 0).toBe(0)
    expect(counter.cursors.get('parts') ?? 0).toBe(0)
    expect(await laptop.context.db.syncOutbox.count()).toBe(0)

    // What a push read before the outbox: every row, each hashed.
    counter.reset()
    await listSyncRows(laptop.context)
    expect(counter.total()).toBeGreaterThan(10_000)
  })
})
