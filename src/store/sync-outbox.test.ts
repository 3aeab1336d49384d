import Dexie from 'dexie'
import { describe, expect, it } from 'vitest'
import type { Part } from '../core/schema'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { removeMessage } from './message-store'
import { clearOutbox, readOutbox, setOutboxRecording } from './sync-rows'
import { write } from './transaction'

const recorded = async (context: ReturnType<typeof makeTestContext>['context']) =>
  (await context.db.syncOutbox.toArray()).map(({ table, key }) => `${table} ${typeof key === 'string' ? key : key.join(' ')}`).sort()

describe('the sync outbox', () => {
  it('records nothing, and widens no transaction, while sync is not set up', async () => {
    const { context } = makeTestContext()
    const build = makeBuilders()
    const session = build.session()
    await context.db.sessions.put(session)
    const scope = await write(context, [context.db.sessions], async () => {
      await context.db.sessions.put({ ...session, title: 'Again' })
      return Array.from(Dexie.currentTransaction!.idbtrans.objectStoreNames)
    })
    expect(scope).toEqual(['sessions'])
    expect(await context.db.syncOutbox.count()).toBe(0)
  })

  it('records each written or deleted row once, in the write’s own transaction, by every write path', async () => {
    const { context } = makeTestContext()
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    const part = build.text(user, 'hello')
    await setOutboxRecording(context, true)
    await context.db.sessions.put(session)
    await context.db.messages.put(user)
    await context.db.parts.put(part)
    await context.db.parts.put({ ...part, text: 'hello again' } as Part)
    await context.db.files.put({ type: 'directory', projectID: 'prj_a', path: '/workspace/src', modified: 1 })
    expect(await recorded(context)).toEqual([`messages ${user.id}`, `parts ${part.id}`, 'files prj_a /workspace/src', `sessions ${session.id}`].sort())

    await context.db.syncOutbox.clear()
    // A cascading delete (the message and its parts) and a whole-table clear name their rows.
    await removeMessage(context, user.id)
    await context.db.files.clear()
    expect(await recorded(context)).toEqual([`messages ${user.id}`, `parts ${part.id}`, 'files prj_a /workspace/src'].sort())

    // A write that fails leaves no entry.
    await context.db.syncOutbox.clear()
    await expect(
      write(context, [context.db.sessions], async () => {
        await context.db.sessions.put({ ...session, title: 'Lost' })
        throw new Error('no')
      }),
    ).rejects.toThrow('no')
    expect(await context.db.syncOutbox.count()).toBe(0)
  })

  it('clears what a push sent, but keeps a row written again after the push read it', async () => {
    const { context } = makeTestContext()
    const build = makeBuilders()
    const session = build.session()
    const other = build.session()
    await setOutboxRecording(context, true)
    await context.db.sessions.bulkPut([session, other])
    const read = await readOutbox(context)
    expect(read.map((entry) => entry.row)).toEqual(expect.arrayContaining([session, other]))
    await context.db.sessions.put({ ...other, title: 'Changed meanwhile' })
    await clearOutbox(context, read.map((entry) => entry.entry))
    expect(await recorded(context)).toEqual([`sessions ${other.id}`])

    // Turning sync off drops what waits and records nothing more.
    await setOutboxRecording(context, false)
    await context.db.sessions.put({ ...session, title: 'Off' })
    expect(await context.db.syncOutbox.count()).toBe(0)
  })
})
