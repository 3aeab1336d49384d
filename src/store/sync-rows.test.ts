import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../core/mcp'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { applySyncedChanges, listSyncRows, readCheckpoint, readSyncDocs, writeCheckpoint } from './sync-rows'

describe('the rows sync reads and writes', () => {
  it('lists sessions, messages and ended parts, and leaves a streaming part out', async () => {
    const { context } = makeTestContext()
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    const ended = build.text(user, 'done')
    const streaming = { ...build.text(user, 'typ'), time: { start: 1 } }
    await context.db.sessions.put(session)
    await context.db.messages.put(user)
    await context.db.parts.bulkPut([ended, streaming])
    expect((await listSyncRows(context)).map((row) => [row.kind, row.key])).toEqual([
      ['session', session.id],
      ['message', user.id],
      ['part', ended.id],
    ])
  })

  it('stores pulled rows and tells the tabs, skips a row changed since it was read, and deletes a tombstoned one', async () => {
    const { context, events } = makeTestContext()
    const build = makeBuilders()
    const session = build.session({ title: 'Here' })
    const user = build.user(session.id)
    const gone = build.user(session.id)
    await context.db.sessions.put(session)
    await context.db.messages.put(gone)
    const skipped = await applySyncedChanges(context, [
      // Read before the agent retitled it: the retitle stays, the next round decides again.
      { kind: 'session', id: session.id, row: { ...session, title: 'There' }, expected: canonicalJson({ ...session, title: 'Older' }), doc: { type: 'synced', id: session.id, kind: 'session', rev: '2-b', digest: 'b' } },
      { kind: 'message', id: user.id, row: user, doc: { type: 'synced', id: user.id, kind: 'message', rev: '1-a', digest: 'a' } },
      { kind: 'message', id: gone.id, expected: canonicalJson(gone), doc: { type: 'synced', id: gone.id, kind: 'message', rev: '2-d' } },
    ])
    expect(skipped).toEqual([session.id])
    expect(await context.db.sessions.get(session.id)).toEqual(session)
    expect(await context.db.messages.toArray()).toEqual([user])
    expect([...(await readSyncDocs(context)).keys()].sort()).toEqual([gone.id, user.id].sort())
    expect(events).toEqual([
      { type: 'message.updated', info: user },
      { type: 'message.removed', sessionID: session.id, messageID: gone.id },
    ])
  })

  it('refuses a pulled row that is not a valid row, writing nothing of its batch', async () => {
    const { context } = makeTestContext()
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    await expect(
      applySyncedChanges(context, [
        { kind: 'message', id: user.id, row: user, doc: { type: 'synced', id: user.id, kind: 'message', rev: '1-a', digest: 'a' } },
        { kind: 'session', id: session.id, row: { ...session, title: 5 }, doc: { type: 'synced', id: session.id, kind: 'session', rev: '1-b', digest: 'b' } },
      ]),
    ).rejects.toThrow(/Invalid synced session/)
    expect(await context.db.messages.count()).toBe(0)
    expect(await context.db.syncDocs.count()).toBe(0)
  })

  it('keeps a checkpoint per server', async () => {
    const { context } = makeTestContext()
    await writeCheckpoint(context, { type: 'checkpoint', key: 'one', since: '12' })
    expect(await readCheckpoint(context, 'one')).toEqual({ type: 'checkpoint', key: 'one', since: '12' })
    expect(await readCheckpoint(context, 'two')).toBeUndefined()
  })
})
