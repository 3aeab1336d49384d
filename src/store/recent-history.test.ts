import { describe, expect, it } from 'vitest'
import { historyBuilder } from '../testing/test-history'
import { makeTestContext } from '../testing/test-context'
import { countReads } from '../testing/count-reads'
import { filterCompacted } from '../core/compaction/filter'
import { pendingMarker } from '../core/compaction/markers'
import { lastOf, stepHistory, turnIsDone, type MessageWithParts } from '../core/history'
import { firstRealUserMessage } from '../core/title-generation'
import type { Part } from '../core/schema'
import { loadHistory, putMessagesAndParts } from './message-store'
import { TabcodeDatabase } from './database'
import { loadHistoryFrom, loadRecentHistory } from './recent-history'

type Builder = ReturnType<typeof historyBuilder>

function turns(h: Builder, count: number, label = 'old') {
  for (let index = 0; index < count; index++) {
    h.user(`${label} question ${index}`)
    h.assistant(`${label} answer ${index}`, {}, (info) => [h.tool(info, 'read', `${label} output ${index}`)])
  }
}

async function stored(h: Builder) {
  const test = makeTestContext()
  await putMessagesAndParts(test.context, { messages: h.history.map((entry) => entry.info), parts: h.history.flatMap((entry) => entry.parts) })
  return test
}

const ids = (history: MessageWithParts[]) => history.map((entry) => entry.info.id)

/**
 * How opencode leaves a session that compacted in a loop (issue 32's real export: 2 typed prompts in 656 user
 * messages): one typed prompt, then `rounds` times a reply, an automatic compaction keeping the reply as its tail,
 * its summary and the synthetic "continue".
 */
function compactionLoop(h: Builder, rounds: number) {
  h.user('the only typed prompt')
  for (let round = 0; round < rounds; round++) {
    const reply = h.assistant(`work ${round}`, { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', `output ${round}`)])
    h.marker({ tail_start_id: reply.info.id })
    h.summary(`SUMMARY ${round}`)
    h.resume()
  }
  h.assistant('the newest work')
}

/**
 * A turn as opencode writes a long one (issue 32): a typed prompt answered by `steps` tool-call steps, each its own
 * assistant message; an automatic compaction in its middle keeping the newest three steps verbatim, its summary and
 * the synthetic "continue"; then a few more steps and the answer. An overflow compaction after the session's only
 * typed prompt has nothing to replay, so it carries on with a "continue" too.
 */
function longTurn(h: Builder, steps: number, options: { overflow?: boolean }) {
  h.user('a long task')
  let tail: MessageWithParts | undefined
  for (let step = 0; step < steps; step++) {
    const reply = h.assistant('', { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', `step ${step}`)])
    if (step === steps - 3) tail = reply
  }
  h.marker({ ...options, tail_start_id: tail!.info.id })
  h.summary('SUMMARY')
  h.resume()
  for (let step = 0; step < 5; step++) h.assistant('', { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', `after ${step}`)])
  h.assistant('the long task is done')
}

/** What a step decides from: the request's messages, the turn rules, the pending marker and the title check. */
function decisions(history: MessageWithParts[]) {
  const step = stepHistory(history)
  return {
    request: filterCompacted(step).messages,
    summary: filterCompacted(step).summaryMessageID,
    done: turnIsDone(history),
    resumable: turnIsDone(history, { resume: true }),
    answers: lastOf(step, 'user')?.info.id,
    pending: pendingMarker(step)?.info.id,
    title: firstRealUserMessage(step)?.info.id,
  }
}

const scenarios: Record<string, (h: Builder) => void> = {
  'no compaction': (h) => turns(h, 6),
  'a compaction that kept a tail of two turns': (h) => {
    turns(h, 40)
    const tail = h.history.at(-4)!.info.id
    h.marker({ tail_start_id: tail })
    h.summary('SUMMARY')
    h.resume()
    h.assistant('carried on')
    turns(h, 2, 'new')
    h.user('the newest prompt')
  },
  'a compaction in the middle of a turn': (h) => {
    turns(h, 40)
    h.user('a long task')
    h.assistant('', { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', 'a big file')])
    const tail = h.history.at(-2)!.info.id
    h.marker({ tail_start_id: tail })
    h.summary('SUMMARY')
    h.resume()
    h.assistant('', { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', 'after the summary')])
  },
  'an overflow compaction that replays the prompt': (h) => {
    turns(h, 40)
    const overflowed = h.user('the prompt that overflowed')
    h.assistant('', { error: { name: 'ContextOverflowError', data: { message: 'too long' } }, finish: 'error' })
    h.marker({ overflow: true, tail_start_id: h.history.at(-6)!.info.id })
    h.summary('SUMMARY')
    const replay = h.user('the prompt that overflowed')
    replay.parts[0] = { ...replay.parts[0]!, metadata: { compaction_replay: overflowed.info.id } } as Part
  },
  'an undone compaction over one that stands': (h) => {
    turns(h, 30)
    h.marker({ tail_start_id: h.history.at(-2)!.info.id })
    h.summary('FIRST SUMMARY')
    h.resume()
    h.assistant('carried on')
    turns(h, 5, 'mid')
    h.marker({ undone: 1 })
    h.summary('UNDONE SUMMARY')
    h.resume()
    h.assistant('carried on again')
    h.user('after the undo')
  },
  'a failed summary after one that stands': (h) => {
    turns(h, 30)
    h.marker()
    h.summary('FIRST SUMMARY')
    turns(h, 3, 'mid')
    h.marker()
    h.summary('', { error: { name: 'UnknownError', data: { message: 'boom' } }, finish: 'error' })
  },
  'a marker waiting for its summary': (h) => {
    turns(h, 30)
    h.marker({ tail_start_id: h.history.at(-4)!.info.id })
    h.summary('FIRST SUMMARY')
    turns(h, 3, 'mid')
    h.marker({ auto: false })
  },
  'two compactions, the newer keeping a tail across the older': (h) => {
    turns(h, 30)
    h.marker()
    h.summary('FIRST SUMMARY')
    h.resume()
    h.assistant('carried on')
    const tail = h.user('just after the first')
    h.assistant('answer')
    h.marker({ tail_start_id: tail.info.id })
    h.summary('SECOND SUMMARY')
    h.user('the newest prompt')
  },
  "a tail that starts at an undone compaction's follow-up": (h) => {
    turns(h, 30)
    h.marker({ undone: 1 })
    h.summary('UNDONE SUMMARY')
    const followUp = h.resume()
    h.assistant('carried on')
    turns(h, 1, 'mid')
    h.marker({ tail_start_id: followUp.info.id })
    h.summary('SUMMARY')
    h.user('the newest prompt')
  },
  'a compaction loop: one typed prompt, then markers, summaries and "continue" only': (h) => compactionLoop(h, 40),
  'a compaction loop whose newest compaction overflowed and waits to replay': (h) => {
    compactionLoop(h, 30)
    h.assistant('', { error: { name: 'ContextOverflowError', data: { message: 'too long' } }, finish: 'error' })
    h.marker({ overflow: true })
  },
  'an undone compaction whose "continue" sits just before the kept tail': (h) => {
    turns(h, 10)
    h.marker({ undone: 1 })
    h.summary('UNDONE SUMMARY')
    h.resume()
    const tail = h.assistant('carried on')
    h.marker({ tail_start_id: tail.info.id })
    h.summary('SUMMARY')
    h.user('the newest prompt')
  },
  'a kept tail that is not in the session': (h) => {
    turns(h, 30)
    h.marker({ tail_start_id: 'msg_ffffffffffff0000nothere00' })
    h.summary('SUMMARY')
    h.user('the newest prompt')
  },
}

describe('the history since the last compaction', () => {
  for (const [name, build] of Object.entries(scenarios)) {
    it(`decides a step as the whole history does: ${name}`, async () => {
      const h = historyBuilder()
      build(h)
      const { context } = await stored(h)
      const whole = await loadHistory(context, h.sessionID)
      const recent = await loadRecentHistory(context, h.sessionID)
      expect(decisions(recent.history)).toEqual(decisions(whole))
      // What it returns is the whole session's newest messages, in the same order.
      expect(ids(recent.history)).toEqual(ids(whole).slice(whole.length - recent.history.length))
      expect(recent.whole).toBe(recent.history.length === whole.length)
    })
  }

  it('reads nothing before the compaction, whatever the length of the history before it', async () => {
    const read = async (older: number) => {
      const h = historyBuilder()
      turns(h, older)
      const tail = h.history.at(-4)!.info.id
      h.marker({ tail_start_id: tail })
      h.summary('SUMMARY')
      h.resume()
      h.assistant('carried on')
      h.user('the newest prompt')
      const { context, db } = await stored(h)
      const counted = await countReads(db)
      const recent = await loadRecentHistory(context, h.sessionID)
      const start = ids(h.history).indexOf(recent.history[0]!.info.id)
      const before = new Set(ids(h.history).slice(0, start))
      return { recent, before, counted }
    }
    const short = await read(50)
    const long = await read(1_000)
    expect(long.recent.whole).toBe(false)
    // Two prompts before the kept tail, the tail, the marker, its summary and what followed.
    expect(long.recent.history).toHaveLength(short.recent.history.length)
    expect(long.recent.history.length).toBeLessThan(12)
    expect([...long.counted.parts].filter((id) => long.before.has(id))).toEqual([])
    // Message rows are walked in doubling batches: the few past the start are the same however long the session.
    expect(long.counted.rows).toBe(short.counted.rows)
    expect(long.counted.parts.size).toBe(long.recent.history.length)
  })

  // Each shape's step reads the same rows whether 50 or 600 messages lie before its newest compaction (issue 32).
  const shapes: Record<string, (h: Builder, size: number) => void> = {
    'typed prompts': (h, size) => {
      turns(h, size)
      h.marker({ tail_start_id: h.history.at(-4)!.info.id })
      h.summary('SUMMARY')
      h.resume()
      h.assistant('carried on')
    },
    'a compaction loop': (h, size) => compactionLoop(h, size / 4),
    'a compaction loop with a typed prompt in between': (h, size) => {
      compactionLoop(h, size / 8)
      h.user('a second typed prompt')
      compactionLoop(h, size / 8)
    },
  }
  for (const [name, build] of Object.entries(shapes)) {
    it(`reads as many rows for a step whatever the history before the compaction: ${name}`, async () => {
      const read = async (size: number) => {
        const h = historyBuilder()
        build(h, size)
        const { context, db } = await stored(h)
        const whole = await loadHistory(context, h.sessionID)
        const counted = await countReads(db)
        const recent = await loadRecentHistory(context, h.sessionID)
        expect(decisions(recent.history)).toEqual(decisions(whole))
        return { recent, counted }
      }
      const short = await read(48)
      const long = await read(600)
      expect(long.recent.whole).toBe(false)
      expect(long.counted.rows).toBe(short.counted.rows)
      expect(long.recent.history.length).toBe(short.recent.history.length)
    })
  }

  // Shapes whose compaction lies inside a turn of many steps (issue 32): the step reads the same rows whether 300 or
  // 3,000 steps lie before the compaction, and no part of a step before the kept tail.
  const longShapes: Record<string, (h: Builder, steps: number) => void> = {
    'one turn of many tool calls, compacted in its middle for its usage': (h, steps) => {
      turns(h, 3)
      longTurn(h, steps, {})
    },
    'one turn of many tool calls after the only typed prompt, an overflow compaction and its "continue"': (h, steps) => longTurn(h, steps, { overflow: true }),
    'one turn of many tool calls whose overflow compaction replays its prompt, the tail kept from before it': (h, steps) => {
      turns(h, 6)
      const tail = h.history.at(-4)!.info.id
      const prompt = h.user('a long task')
      for (let step = 0; step < steps; step++) h.assistant('', { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', `step ${step}`)])
      h.marker({ overflow: true, tail_start_id: tail })
      h.summary('SUMMARY')
      const replay = h.user('a long task')
      replay.parts[0] = { ...replay.parts[0]!, metadata: { compaction_replay: prompt.info.id } } as Part
      for (let step = 0; step < 3; step++) h.assistant('', { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', `again ${step}`)])
    },
    'a new prompt after such a turn': (h, steps) => {
      longTurn(h, steps, { overflow: true })
      h.user('the next prompt')
      h.assistant('answered')
    },
  }
  for (const [name, build] of Object.entries(longShapes)) {
    it(`reads as many rows for a step whatever the number of steps before the compaction: ${name}`, async () => {
      const read = async (steps: number) => {
        const h = historyBuilder()
        build(h, steps)
        const { context, db } = await stored(h)
        const whole = await loadHistory(context, h.sessionID)
        const counted = await countReads(db)
        const recent = await loadRecentHistory(context, h.sessionID)
        expect(decisions(recent.history)).toEqual(decisions(whole))
        // Oldest first as the whole session holds them, only replies left out.
        const all = ids(whole)
        const positions = ids(recent.history).map((id) => all.indexOf(id))
        expect(positions).toEqual([...positions].sort((a, b) => a - b))
        const left = new Set(all.filter((id) => !ids(recent.history).includes(id) && all.indexOf(id) > positions[0]!))
        expect(whole.filter((entry) => left.has(entry.info.id)).every((entry) => entry.info.role === 'assistant')).toBe(true)
        // Of a reply left out, a part is read only where the one query for the kept prompts' parts steps over it.
        expect([...counted.parts].filter((id) => left.has(id)).length).toBeLessThanOrEqual(2)
        return { recent, counted }
      }
      const short = await read(300)
      const long = await read(3_000)
      expect(long.recent.whole).toBe(false)
      expect(long.recent.skippedBefore).toBeDefined()
      expect(long.counted.rows).toBe(short.counted.rows)
      expect(long.recent.history.length).toBe(short.recent.history.length)
      expect(long.recent.history.length).toBeLessThan(40)
    }, 30_000)
  }

  it("reads a compacted session's parts for the messages it keeps only, by index lookups, and keeps the same history", async () => {
    const h = historyBuilder()
    turns(h, 30)
    h.marker({ tail_start_id: h.history.at(-4)!.info.id })
    h.summary('SUMMARY')
    h.resume()
    h.assistant('carried on')
    turns(h, 3, 'new')
    h.user('the newest prompt')
    const { context, db } = await stored(h)
    const whole = await loadHistory(context, h.sessionID)
    const read = await countReads(db)
    const recent = await loadRecentHistory(context, h.sessionID)
    expect(recent.whole).toBe(false)
    expect(recent.history).toEqual(whole.slice(whole.length - recent.history.length))
    expect(recent.history.every((entry) => entry.parts.length > 0)).toBe(true)
    expect([...read.parts].sort()).toEqual(ids(recent.history).sort())
    // A cursor that jumps from message to message (`anyOf`) waits for the storage process at every jump.
    expect(read.cursorRows).toBe(0)
  })

  it('sees a write made through another connection to the same database at once (no cache to go stale)', async () => {
    const h = historyBuilder()
    turns(h, 20)
    const marker = h.marker()
    h.summary('SUMMARY')
    h.user('first prompt after it')
    const { context, db } = await stored(h)
    expect(ids((await loadRecentHistory(context, h.sessionID)).history)).not.toContain(h.history[0]!.info.id)
    // Another tab's worker: its own connection, its own writes.
    const otherTab = { ...context, db: new TabcodeDatabase(db.name) }
    const later = historyBuilder()
    const prompt = later.user('from the other tab')
    const row = { info: { ...prompt.info, sessionID: h.sessionID, time: { created: h.history.at(-1)!.info.time.created + 1 } }, parts: prompt.parts.map((part) => ({ ...part, sessionID: h.sessionID })) }
    await putMessagesAndParts(otherTab, { messages: [row.info], parts: row.parts })
    expect((await loadRecentHistory(context, h.sessionID)).history.at(-1)!.info.id).toBe(row.info.id)
    // Its undo of the compaction moves the boundary back at once: the whole session is the history again.
    await putMessagesAndParts(otherTab, { messages: [], parts: [{ ...marker.parts[0]!, undone: 5 } as Part] })
    const recent = await loadRecentHistory(context, h.sessionID)
    expect(recent.whole).toBe(true)
    expect(recent.history[0]!.info.id).toBe(h.history[0]!.info.id)
  })

  it('reads a revert preview from the target on, the prompt a reply answers included', async () => {
    const h = historyBuilder()
    turns(h, 100)
    const { context, db } = await stored(h)
    const target = h.history.at(-3)!
    const counted = await countReads(db)
    const from = await loadHistoryFrom(context, h.sessionID, target.info.id)
    expect(ids(from)).toEqual(ids(h.history.slice(-4)))
    expect(counted.messages.size).toBeGreaterThan(0)
    expect(counted.messages.size).toBeLessThan(8)
  })
})
