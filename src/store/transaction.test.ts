import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../core/event'
import { makeTestContext } from '../testing/test-context'
import { read, write } from './transaction'

const todos = (sessionID: string): SessionEvent => ({ type: 'todo.updated', sessionID, todos: [] })
const row = (sessionID: string) => ({ sessionID, items: [], time: { updated: 1 } })

describe('the write door', () => {
  it('emits what a write announced once it has committed, in the order announced', async () => {
    const { context, db, events } = makeTestContext()
    const result = await write(context, [db.todos], async (announce) => {
      announce(todos('ses_a'))
      await db.todos.put(row('ses_a'))
      announce(todos('ses_b'))
      expect(events).toEqual([])
      return 'done'
    })
    expect(result).toBe('done')
    expect(events).toEqual([todos('ses_a'), todos('ses_b')])
    expect(await db.todos.count()).toBe(1)
  })

  it('emits nothing and stores nothing when the write throws', async () => {
    const { context, db, events } = makeTestContext()
    await expect(
      write(context, [db.todos], async (announce) => {
        await db.todos.put(row('ses_a'))
        announce(todos('ses_a'))
        throw new Error('refused')
      }),
    ).rejects.toThrow('refused')
    expect(events).toEqual([])
    expect(await db.todos.count()).toBe(0)
  })

  it('holds the events of a write inside another until the outer one commits, in the order announced', async () => {
    const { context, db, events } = makeTestContext()
    await write(context, [db.todos], async (announce) => {
      announce(todos('ses_outer_before'))
      await write(context, [db.todos], async (inner) => {
        await db.todos.put(row('ses_inner'))
        inner(todos('ses_inner'))
      })
      expect(events).toEqual([])
      announce(todos('ses_outer_after'))
    })
    expect(events).toEqual([todos('ses_outer_before'), todos('ses_inner'), todos('ses_outer_after')])
  })

  it('emits nothing of a write inside another when the outer one fails after it', async () => {
    const { context, db, events } = makeTestContext()
    await expect(
      write(context, [db.todos], async () => {
        await write(context, [db.todos], async (inner) => {
          await db.todos.put(row('ses_inner'))
          inner(todos('ses_inner'))
        })
        throw new Error('refused')
      }),
    ).rejects.toThrow('refused')
    expect(events).toEqual([])
    expect(await db.todos.count()).toBe(0)
  })

  it('refuses an announcement when nobody would hear it', async () => {
    const { db } = makeTestContext()
    await expect(write({ db }, [db.todos], async (announce) => announce(todos('ses_a')))).rejects.toThrow('without an event sink')
    await expect(write({ db }, [db.todos], async () => db.todos.put(row('ses_a')))).resolves.toBe('ses_a')
  })

  it('reads in one transaction', async () => {
    const { context, db } = makeTestContext()
    await db.todos.put(row('ses_a'))
    expect(await read(context, [db.todos], async () => (await db.todos.get('ses_a'))?.sessionID)).toBe('ses_a')
  })
})
