import { describe, expect, it, vi } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { updateMessage } from './message-store'
import { PartWriter, type Timer } from './part-writer'
import { createSession } from './session-store'
import { makeTestContext } from '../testing/test-context'
import type { PartOf } from '../core/schema'

/** How Dexie reports a transaction the browser refused for lack of space. */
const quotaAbort = () => Object.assign(new Error('QuotaExceededError'), { name: 'AbortError', inner: new DOMException('full', 'QuotaExceededError') })

const whenAborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })))

function manualTimer() {
  const callbacks = new Map<number, () => void>()
  let next = 0
  const timer: Timer = {
    set: (callback) => {
      callbacks.set(++next, callback)
      return next
    },
    clear: (handle) => callbacks.delete(handle as number),
  }
  return { timer, fire: () => [...callbacks.entries()].forEach(([handle, callback]) => (callbacks.delete(handle), callback())), size: () => callbacks.size }
}

/** A `read` call's completed state on `reply`, the kind of part the loop holds for the step's finish. */
function completedRead(reply: { sessionID: string; id: string }, id: string): PartOf<'tool'> {
  return {
    id, sessionID: reply.sessionID, messageID: reply.id, type: 'tool', callID: 'c', tool: 'read',
    state: { status: 'completed', input: { filePath: 'a' }, output: 'x', title: 'a', metadata: {}, time: { start: 1, end: 2 } },
  } as PartOf<'tool'>
}

describe('part writer', () => {
  async function setup() {
    const test = makeTestContext()
    const build = makeBuilders()
    const session = await createSession(test.context, { projectID: 'prj_test' })
    const user = build.user(session.id)
    await updateMessage(test.context, user)
    const reply = build.assistant(session.id, user.id)
    await updateMessage(test.context, reply)
    const clock = manualTimer()
    let time = 1_000
    const writer = new PartWriter(test.context, { interval: 50, timer: clock.timer, now: () => time })
    return { ...test, build, reply, clock, writer, elapse: (milliseconds: number) => (time += milliseconds) }
  }

  it('sends each delta live but writes the text once per flush window', async () => {
    const { db, events, build, reply, clock, writer } = await setup()
    const part = build.text(reply, '')
    await writer.save(part)
    events.length = 0
    for (const piece of ['Hel', 'lo', ' wor', 'ld']) {
      part.text += piece
      writer.delta(part, piece)
    }
    expect(events.map((event) => event.type)).toEqual(['part.delta', 'part.delta', 'part.delta', 'part.delta'])
    expect(((await db.parts.get(part.id)) as typeof part).text).toBe('')
    expect(clock.size()).toBe(1)
    clock.fire()
    await writer.flush()
    expect(((await db.parts.get(part.id)) as typeof part).text).toBe('Hello world')
    expect(writer.commits).toBe(2)
  })

  it('writes all dirty parts of a window in one flush and announces saves', async () => {
    const { db, events, build, reply, writer } = await setup()
    const first = build.text(reply, 'a')
    const second = build.text(reply, 'b')
    writer.touch(first)
    writer.touch(second)
    expect(writer.pending).toBe(2)
    await writer.flush()
    expect(writer.commits).toBe(1)
    expect(await db.parts.count()).toBe(2)
    expect(events.filter((event) => event.type === 'part.updated')).toHaveLength(0)
    await writer.save({ ...first, text: 'a!' })
    expect(events.at(-1)).toMatchObject({ type: 'part.updated', part: { id: first.id, text: 'a!' } })
  })

  it('keeps the text of a flush the disk refused and writes it with the next one', async () => {
    const { db, build, reply, writer } = await setup()
    const part = build.text(reply, '')
    await writer.save(part)
    part.text = 'kept'
    writer.delta(part, 'kept')
    const bulkPut = db.parts.bulkPut.bind(db.parts)
    let refuse = true
    db.parts.bulkPut = ((rows: never) => {
      if (!refuse) return bulkPut(rows)
      refuse = false
      return Promise.reject(Object.assign(new Error('Transaction aborted'), { name: 'AbortError', inner: new DOMException('full', 'QuotaExceededError') }))
    }) as typeof db.parts.bulkPut
    await expect(writer.flush()).rejects.toMatchObject({ name: 'AbortError' })
    expect(writer.pending).toBe(1)
    await writer.flush()
    expect(((await db.parts.get(part.id)) as typeof part).text).toBe('kept')
  })

  it('says a flush is overdue when the timer was starved, and not right after a flush', async () => {
    const { build, reply, writer, elapse } = await setup()
    const part = build.text(reply, '')
    expect(writer.overdue()).toBe(false)
    writer.delta(part, 'x')
    elapse(60)
    expect(writer.overdue()).toBe(false)
    // A busy worker: 110 ms pass and the 50 ms timer (manual here) never got to run.
    elapse(50)
    expect(writer.overdue()).toBe(true)
    await writer.flush()
    expect(writer.overdue()).toBe(false)
  })

  it('reports the first refused flush, timed or not, through `refused`, and leaves no rejection unhandled', async () => {
    const { db, build, reply, clock, writer } = await setup()
    const part = build.text(reply, '')
    await writer.save(part)
    db.parts.bulkPut = (() => Promise.reject(quotaAbort())) as never
    part.text = 'lost'
    writer.delta(part, 'lost')
    expect(writer.refused.aborted).toBe(false)
    // The timer's flush has nobody awaiting it: the refusal reaches the step through the signal alone (vitest fails
    // the run on an unhandled rejection).
    clock.fire()
    await whenAborted(writer.refused)
    expect(writer.refused.reason).toMatchObject({ name: 'AbortError' })
  })

  it('shows again what storage holds once a write was refused: the last flushed text, and no part that never reached it', async () => {
    const { db, events, build, reply, writer } = await setup()
    const kept = build.text(reply, '')
    await writer.save(kept)
    kept.text = 'Saved'
    writer.delta(kept, 'Saved')
    await writer.flush()
    db.parts.bulkPut = (() => Promise.reject(quotaAbort())) as never
    kept.text += ' and lost'
    writer.delta(kept, ' and lost')
    await expect(writer.flush()).rejects.toMatchObject({ name: 'AbortError' })
    // A part that starts after the refusal is not written either.
    const never = build.text(reply, 'never stored')
    await expect(writer.save(never)).rejects.toMatchObject({ name: 'AbortError' })
    events.length = 0

    writer.showStored()
    expect(events).toEqual([
      { type: 'part.removed', sessionID: reply.sessionID, messageID: reply.id, partID: never.id },
      { type: 'part.updated', part: expect.objectContaining({ id: kept.id, text: 'Saved' }) },
    ])
    expect(writer.pending).toBe(0)
    // Reported once: a later flush (the loop's own, the page being hidden) does not fail again for it.
    await expect(writer.flush()).resolves.toBeUndefined()
    expect(((await db.parts.get(kept.id)) as typeof kept).text).toBe('Saved')
  })

  it('queues states without waiting for their commit: those that come together are one write and one event, the newest state', async () => {
    const { db, events, build, reply, writer } = await setup()
    const part = {
      id: 'prt_queued0000000000000000001', sessionID: reply.sessionID, messageID: reply.id, type: 'tool' as const, callID: 'c', tool: 'read',
      state: { status: 'pending' as const, input: {}, raw: '' },
    } as PartOf<'tool'>
    const start = build.text(reply, '')
    events.length = 0
    writer.queue(start)
    writer.queue(part)
    // The caller goes on at once; the object it goes on changing is stored as it was when queued.
    part.state = { status: 'running', input: { filePath: 'a' }, time: { start: 1 } }
    writer.queue(part)
    part.state = { status: 'completed', input: { filePath: 'a' }, output: 'x', title: 'a', metadata: {}, time: { start: 1, end: 2 } }
    expect(await db.parts.get(part.id)).toBeUndefined()
    await writer.flush()
    const announced = () => events.flatMap((event) => (event.type === 'part.updated' ? [event.part.type === 'tool' ? event.part.state.status : event.part.id] : []))
    expect(announced()).toEqual([start.id, 'running'])
    expect(((await db.parts.get(part.id)) as PartOf<'tool'>).state.status).toBe('running')
    expect(writer.commits).toBe(1)
    await writer.save(part)
    expect(announced()).toEqual([start.id, 'running', 'completed'])
    expect(((await db.parts.get(part.id)) as PartOf<'tool'>).state.status).toBe('completed')
    expect(writer.commits).toBe(2)
  })

  it('writes a queued state that a save replaced before storage got to it only in the newer state', async () => {
    const { db, events, reply, writer } = await setup()
    const part = {
      id: 'prt_queued0000000000000000002', sessionID: reply.sessionID, messageID: reply.id, type: 'tool' as const, callID: 'c', tool: 'read',
      state: { status: 'running' as const, input: { filePath: 'a' }, time: { start: 1 } },
    } as PartOf<'tool'>
    events.length = 0
    writer.queue(part)
    part.state = { status: 'completed', input: { filePath: 'a' }, output: 'x', title: 'a', metadata: {}, time: { start: 1, end: 2 } }
    await writer.save(part)
    const announced = events.flatMap((event) => (event.type === 'part.updated' && event.part.type === 'tool' ? [event.part.state.status] : []))
    expect(announced).toEqual(['completed'])
    expect(((await db.parts.get(part.id)) as PartOf<'tool'>).state.status).toBe('completed')
  })

  it('writes a held state with the next save, in its transaction and announced before it, and the streamed rows too', async () => {
    const { db, events, build, reply, writer } = await setup()
    const tool = completedRead(reply, 'prt_held00000000000000000001')
    const streamed = build.text(reply, 'streamed')
    writer.delta(streamed, 'streamed')
    events.length = 0
    writer.hold(tool)
    expect(await db.parts.get(tool.id)).toBeUndefined()
    const finish = build.text(reply, 'the finish')
    await writer.save(finish, { ...reply, finish: 'tool-calls' })
    expect(writer.commits).toBe(1)
    expect(events.map((event) => (event.type === 'part.updated' ? event.part.id : event.type))).toEqual([tool.id, finish.id, 'message.updated'])
    expect(await db.parts.get(tool.id)).toMatchObject({ state: { status: 'completed' } })
    expect(await db.parts.get(streamed.id)).toMatchObject({ text: 'streamed' })
    expect(writer.pending).toBe(0)
  })

  it('writes a held state on its own a moment later when no save comes, and flush waits for it', async () => {
    const { db, events, reply, clock, writer } = await setup()
    const tool = completedRead(reply, 'prt_held00000000000000000002')
    events.length = 0
    writer.hold(tool)
    expect(await db.parts.get(tool.id)).toBeUndefined()
    // The moment passes (the writer's timer: a macrotask in the app).
    clock.fire()
    await expect.poll(async () => (await db.parts.get(tool.id))?.id).toBe(tool.id)
    expect(events.map((event) => event.type)).toEqual(['part.updated'])
    const other = { ...tool, id: 'prt_held00000000000000000003', callID: 'd' }
    writer.hold(other)
    await writer.flush()
    expect(await db.parts.get(other.id)).toBeDefined()
  })

  it('reports a queued write storage refused through `refused` and to the next save', async () => {
    const { db, build, reply, writer } = await setup()
    db.parts.bulkPut = (() => Promise.reject(quotaAbort())) as never
    writer.queue(build.text(reply, 'never stored'))
    await whenAborted(writer.refused)
    await expect(writer.save(build.text(reply, 'after it'))).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('opens a save while a queued state is still being written, and storage ends with the newest states in order', async () => {
    const { db, events, build, reply, writer } = await setup()
    // Each transaction's opening and its end, in order; the step's finish is saved just after the queued write opens.
    const log: string[] = []
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>
    let opened = 0
    let saved: Promise<void> | undefined
    const finish = build.stepFinish(reply, 0.1, 10, 1)
    db.transaction = ((...args: unknown[]) => {
      const index = ++opened
      log.push(`open ${index}`)
      if (index === 1)
        queueMicrotask(() => {
          writer.hold(completedRead(reply, 'prt_call'))
          saved = writer.save(finish)
        })
      return transaction(...args).finally(() => log.push(`end ${index}`))
    }) as never
    const running = { ...completedRead(reply, 'prt_call'), state: { status: 'running', input: { filePath: 'a' }, time: { start: 1 } } } as PartOf<'tool'>
    events.length = 0
    // A step: the call's running state queued, then at once its result held and the step's finish saved.
    writer.queue(running)
    await vi.waitFor(() => expect(saved).toBeDefined())
    await saved
    // Not opened after the queued write's end: IndexedDB runs them in order anyway.
    expect(log).toEqual(['open 1', 'open 2', 'end 1', 'end 2'])
    expect(await db.parts.get('prt_call')).toMatchObject({ state: { status: 'completed' } })
    expect(events.filter((event) => event.type === 'part.updated').map((event) => [event.part.id, event.part.type === 'tool' ? event.part.state.status : event.part.type])).toEqual([
      ['prt_call', 'running'],
      ['prt_call', 'completed'],
      [finish.id, 'step-finish'],
    ])
  })
})
