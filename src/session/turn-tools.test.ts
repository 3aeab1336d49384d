import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { updateMessage } from '../store/message-store'
import { createSession, getSession } from '../store/session-store'
import { writeFixture } from '../store/fixture'
import { countReads } from '../testing/count-reads'
import type { Message, Part, UserMessage } from '../core/schema'
import { recordDiffs, recordPatch, storedOutputs, storedTodos, type TurnDependencies } from './turn-tools'

describe('the tools’ stored ports', () => {
  it('keeps a truncated output whole under a tool id and reads it back by that id', async () => {
    const test = makeTestContext()
    const outputs = storedOutputs(test.context)
    const id = await outputs.save({ sessionID: 'ses_1', messageID: 'msg_1', partID: 'prt_1', text: 'the whole text' })
    expect(id).toMatch(/^tool_/)
    expect(await outputs.read(id)).toBe('the whole text')
    expect(await test.db.outputs.get(id)).toMatchObject({ sessionID: 'ses_1', messageID: 'msg_1', partID: 'prt_1', time: { created: expect.any(Number) } })
    expect(await outputs.read('tool_missing')).toBeUndefined()
  })

  it('writes the session’s task list and announces it', async () => {
    const test = makeTestContext()
    const todos = [{ content: 'ship it', status: 'pending' as const, priority: 'high' as const, id: '1' }]
    expect(await storedTodos(test.context).write('ses_1', todos)).toEqual(todos)
    expect((await test.db.todos.get('ses_1'))?.items).toEqual(todos)
    expect(test.events).toContainEqual({ type: 'todo.updated', sessionID: 'ses_1', todos })
  })
})

describe('the patch part after a step', () => {
  it('is validated like every other part: a bad one is refused and nothing is written', async () => {
    const { context, db, events } = makeTestContext()
    const build = makeBuilders()
    const session = await createSession(context, { projectID: 'prj_test' })
    const user = build.user(session.id)
    const reply = build.assistant(session.id, user.id)
    await updateMessage(context, user)
    await updateMessage(context, reply)
    const dependencies = {
      store: context,
      snapshots: { changedFiles: async () => [42] },
    } as unknown as TurnDependencies
    const before = events.length
    await expect(recordPatch(dependencies, reply, 'snap_a', 'snap_b')).rejects.toMatchObject({ name: 'ValidationError' })
    expect(await db.parts.count()).toBe(0)
    expect(events.slice(before)).toEqual([])
  })
})

describe('the diffs recorded when a turn ends in a long compacted session', () => {
  /**
   * The first turn changed a file (snapshots s0 → s1), then `older` turns that changed none, a compaction near the
   * end, and the turn that just ended, from s1 to `to`. The session's diffs were recorded by the turns before.
   */
  async function session(to: string, older = 300) {
    const test = makeTestContext()
    const build = makeBuilders()
    const info = build.session({ summary: { additions: 1, deletions: 0, files: 1, diffs: [{ file: 'first.txt', additions: 1, deletions: 0 }] } })
    const messages: Message[] = []
    const parts: Part[] = []
    const turn = (from?: string, until?: string) => {
      const user = build.user(info.id)
      const reply = build.assistant(info.id, user.id)
      messages.push(user, reply)
      parts.push(build.text(user, 'a prompt'))
      const id = () => build.ids.ascending('part', build.now())
      parts.push({ id: id(), sessionID: info.id, messageID: reply.id, type: 'step-start', ...(from ? { snapshot: from } : {}) })
      parts.push(build.text(reply, 'an answer'))
      parts.push({ ...build.stepFinish(reply, 0, 1, 1), ...(until ? { snapshot: until } : {}) })
      return user
    }
    turn('s0', 's1')
    for (let index = 0; index < older; index++) turn()
    const kept = turn()
    const marker = build.user(info.id)
    messages.push(marker)
    parts.push({ id: build.ids.ascending('part', build.now()), sessionID: info.id, messageID: marker.id, type: 'compaction', auto: true, tail_start_id: kept.id } as Part)
    const summary = build.assistant(info.id, marker.id, { summary: true, agent: 'compaction', mode: 'compaction' })
    messages.push(summary)
    parts.push(build.text(summary, 'THE SUMMARY'))
    const last = turn('s1', to)
    await writeFixture(test.context, { sessions: [info], messages, parts })
    const ranges: { from: string; to: string }[][] = []
    const dependencies = {
      store: test.context,
      snapshots: {
        diffs: async (from: string, until: string) => (from === until ? [] : [{ file: `${from}-${until}.txt`, additions: 1, deletions: 0 }]),
        sessionDiffs: async (turns: { from: string; to: string }[]) => {
          ranges.push(turns)
          return turns.filter((range) => range.from !== range.to).map((range) => ({ file: `${range.from}-${range.to}.txt`, additions: 1, deletions: 0 }))
        },
      },
    } as unknown as TurnDependencies
    return { ...test, info, last, ranges, dependencies, first: messages[0]! }
  }

  it('reads nothing before the compaction when the turn changed no file, and leaves the session’s diffs as they were', async () => {
    const test = await session('s1')
    const read = await countReads(test.db)
    await recordDiffs(test.dependencies, test.info.id)
    expect(test.ranges).toEqual([])
    expect(read.parts.has(test.first.id)).toBe(false)
    expect((await getSession(test.context, test.info.id)).summary?.diffs?.map((diff) => diff.file)).toEqual(['first.txt'])
    expect((await test.db.messages.get(test.last.id)) as UserMessage).toMatchObject({ summary: { diffs: [] } })
  })

  it('works the session’s diffs out over every turn when the turn changed a file, the first one’s included', async () => {
    const test = await session('s2')
    await recordDiffs(test.dependencies, test.info.id)
    expect(test.ranges.at(-1)).toEqual([
      { from: 's0', to: 's1' },
      { from: 's1', to: 's2' },
    ])
    expect((await getSession(test.context, test.info.id)).summary?.diffs?.map((diff) => diff.file)).toEqual(['s0-s1.txt', 's1-s2.txt'])
    expect((await test.db.messages.get(test.last.id)) as UserMessage).toMatchObject({ summary: { diffs: [{ file: 's1-s2.txt' }] } })
  })
})
