import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { inTurnOrder, marksFinishError, stepHistory, turnIsDone, unansweredPrompt } from './history'
import type { MessageWithParts } from './dto/messages'
import type { Part } from './schema'

const build = makeBuilders()
const sessionID = build.session().id

function tool(message: { id: string; sessionID: string }, state: Extract<Part, { type: 'tool' }>['state'], metadata?: Record<string, unknown>): Part {
  return { id: build.ids.ascending('part'), sessionID: message.sessionID, messageID: message.id, type: 'tool', callID: 'c', tool: 'todowrite', state, ...(metadata ? { metadata } : {}) }
}

describe('when a turn is done', () => {
  const user = build.user(sessionID)
  const entry = (info: MessageWithParts['info'], parts: Part[] = []): MessageWithParts => ({ info, parts })

  it('is not done before any reply, and done with nothing to answer', () => {
    expect(turnIsDone([entry(user)])).toBe(false)
    expect(turnIsDone([])).toBe(true)
  })

  it('is done when the newest reply finished with stop and has no live tool calls', () => {
    const reply = build.assistant(sessionID, user.id, { finish: 'stop' })
    expect(turnIsDone([entry(user), entry(reply, [build.text(reply, 'hi')])])).toBe(true)
  })

  it('goes on after tool calls, or when the reply has tool parts despite saying stop', () => {
    const calls = build.assistant(sessionID, user.id, { finish: 'tool-calls' })
    expect(turnIsDone([entry(user), entry(calls)])).toBe(false)
    const liar = build.assistant(sessionID, user.id, { finish: 'stop' })
    const done = tool(liar, { status: 'completed', input: {}, output: 'ok', title: 't', metadata: {}, time: { start: 1, end: 2 } })
    expect(turnIsDone([entry(user), entry(liar, [done])])).toBe(false)
  })

  it('ignores interrupted orphans and provider-executed calls', () => {
    const reply = build.assistant(sessionID, user.id, { finish: 'stop' })
    const orphan = tool(reply, { status: 'error', input: {}, error: 'Tool execution aborted', metadata: { interrupted: true }, time: { start: 1, end: 2 } })
    const remote = tool(reply, { status: 'completed', input: {}, output: 'x', title: 't', metadata: {}, time: { start: 1, end: 2 } }, { providerExecuted: true })
    expect(turnIsDone([entry(user), entry(reply, [orphan, remote])])).toBe(true)
  })

  it('goes on when a newer user message arrived (steering)', () => {
    const reply = build.assistant(sessionID, user.id, { finish: 'stop' })
    const next = build.user(sessionID)
    expect(turnIsDone([entry(user), entry(reply), entry(next)])).toBe(false)
  })

  it('treats a failed reply as the end of the turn unless resuming', () => {
    const failed = build.assistant(sessionID, user.id, {
      finish: undefined,
      error: { name: 'APIError', data: { message: 'boom', isRetryable: false } },
    })
    expect(turnIsDone([entry(user), entry(failed)])).toBe(true)
    expect(turnIsDone([entry(user), entry(failed)], { resume: true })).toBe(false)
  })

  it('ends the turn at a reply stopped mid-step, stored as opencode stores it (aborted, with no finish)', () => {
    const stopped = build.assistant(sessionID, user.id, { finish: undefined, error: { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } } })
    expect(turnIsDone([entry(user), entry(stopped)])).toBe(true)
    expect(turnIsDone([entry(user), entry(stopped)], { resume: true })).toBe(false)
  })

  it('treats an unanswered compaction marker as work, and its summary as the end of the turn', () => {
    const reply = build.assistant(sessionID, user.id, { finish: 'stop' })
    const marker = build.user(sessionID)
    const compaction: Part = { id: build.ids.ascending('part'), sessionID, messageID: marker.id, type: 'compaction', auto: false }
    expect(turnIsDone([entry(user), entry(reply), entry(marker, [compaction])])).toBe(false)
    // Even a summariser that tried to call a tool is done: its tools never run.
    const summary = build.assistant(sessionID, marker.id, { summary: true, agent: 'compaction', finish: 'tool-calls' })
    expect(turnIsDone([entry(user), entry(reply), entry(marker, [compaction]), entry(summary)])).toBe(true)
  })

  it('counts a reply only for the prompt it names as its parent, not for a prompt stored before it was created', () => {
    // Another tab stored `second` while the step answering `user` was being set up: the reply is newer than
    // `second` but was built without it.
    const second = build.user(sessionID)
    const reply = build.assistant(sessionID, user.id, { finish: 'stop' })
    expect(turnIsDone([entry(user), entry(second), entry(reply)])).toBe(false)
    const answer = build.assistant(sessionID, second.id, { finish: 'stop' })
    expect(turnIsDone([entry(user), entry(second), entry(reply), entry(answer)])).toBe(true)
    // The newest reply to the newest prompt decides: a step that called tools is not the end of its turn.
    const calling = build.assistant(sessionID, second.id, { finish: 'tool-calls' })
    expect(turnIsDone([entry(user), entry(second), entry(reply), entry(calling)])).toBe(false)
  })
})

describe('the order a history is read in', () => {
  const entry = (info: MessageWithParts['info']): MessageWithParts => ({ info, parts: [] })

  it('puts a reply right after its own turn when a later prompt was stored before the reply was created', () => {
    const first = build.user(sessionID)
    const second = build.user(sessionID)
    const late = build.assistant(sessionID, first.id, { finish: 'stop' })
    const answer = build.assistant(sessionID, second.id, { finish: 'stop' })
    const ids = inTurnOrder([entry(first), entry(second), entry(late), entry(answer)]).map((item) => item.info.id)
    expect(ids).toEqual([first.id, late.id, second.id, answer.id])
  })

  it('keeps creation order for an ordinary history, a steered turn and a reply whose prompt is gone', () => {
    const first = build.user(sessionID)
    const step = build.assistant(sessionID, first.id, { finish: 'tool-calls' })
    const steer = build.user(sessionID)
    const answer = build.assistant(sessionID, steer.id, { finish: 'stop' })
    const orphan = build.assistant(sessionID, 'msg_gone', { finish: 'stop' })
    const history = [entry(first), entry(step), entry(steer), entry(answer), entry(orphan)]
    expect(inTurnOrder(history)).toEqual(history)
  })
})

describe('what the next step answers from', () => {
  const entry = (info: MessageWithParts['info']): MessageWithParts => ({ info, parts: [] })
  const ids = (history: MessageWithParts[]) => history.map((item) => item.info.id)

  it('stops at the oldest prompt after the newest answered one, so two prompts sent at once get a reply each', () => {
    const old = build.user(sessionID)
    const reply = build.assistant(sessionID, old.id, { finish: 'stop' })
    const first = build.user(sessionID)
    const second = build.user(sessionID)
    expect(ids(stepHistory([entry(old), entry(reply), entry(first), entry(second)]))).toEqual([old.id, reply.id, first.id])
    const answer = build.assistant(sessionID, first.id, { finish: 'stop' })
    const all = [entry(old), entry(reply), entry(first), entry(answer), entry(second)]
    expect(stepHistory(all)).toEqual(all)
  })

  it('sends everything while the newest prompt has a reply (a turn going on, or one steered mid-step)', () => {
    const first = build.user(sessionID)
    const step = build.assistant(sessionID, first.id, { finish: 'tool-calls' })
    expect(stepHistory([entry(first), entry(step)])).toHaveLength(2)
    const steer = build.user(sessionID)
    expect(stepHistory([entry(first), entry(step), entry(steer)])).toHaveLength(3)
  })

  it('keeps the compaction marker made before answering a prompt with that prompt', () => {
    const first = build.user(sessionID)
    const reply = build.assistant(sessionID, first.id, { finish: 'stop' })
    const second = build.user(sessionID)
    const marker = build.user(sessionID)
    const compaction: Part = { id: build.ids.ascending('part'), sessionID, messageID: marker.id, type: 'compaction', auto: true }
    const history = [entry(first), entry(reply), entry(second), { info: marker, parts: [compaction] }]
    expect(stepHistory(history)).toEqual(history)
  })

  it('leaves an old prompt that never got a reply alone once a newer one has', () => {
    const lost = build.user(sessionID)
    const next = build.user(sessionID)
    const reply = build.assistant(sessionID, next.id, { finish: 'stop' })
    const now = build.user(sessionID)
    expect(stepHistory([entry(lost), entry(next), entry(reply), entry(now)])).toHaveLength(4)
  })
})

describe('a prompt no reply answers', () => {
  const entry = (info: MessageWithParts['info'], parts: Part[] = []): MessageWithParts => ({ info, parts })

  it('is the newest prompt when it has no reply: sent while a turn ran, or before any step', () => {
    const first = build.user(sessionID)
    const cut = build.assistant(sessionID, first.id, { error: { name: 'MessageAbortedError', data: { message: 'The tab running this turn was closed before it finished' } } })
    const joined = build.user(sessionID)
    expect(unansweredPrompt([entry(first), entry(cut), entry(joined)])?.info.id).toBe(joined.id)
    expect(unansweredPrompt([entry(first)])?.info.id).toBe(first.id)
  })

  it('is none once the newest prompt has a reply of any kind, or when the newest is a compaction marker', () => {
    const first = build.user(sessionID)
    const reply = build.assistant(sessionID, first.id, { error: { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } } })
    expect(unansweredPrompt([entry(first), entry(reply)])).toBeUndefined()
    expect(unansweredPrompt([])).toBeUndefined()
    const marker = build.user(sessionID)
    const compaction: Part = { id: build.ids.ascending('part'), sessionID, messageID: marker.id, type: 'compaction', auto: true }
    expect(unansweredPrompt([entry(first), entry(reply), { info: marker, parts: [compaction] }])).toBeUndefined()
  })
})

describe('which errored replies are stored with finish: error', () => {
  it('marks every error but a stop, which keeps the finish its step reached as in opencode', () => {
    expect(marksFinishError({ name: 'APIError', data: { message: 'boom', isRetryable: false } })).toBe(true)
    expect(marksFinishError({ name: 'ContextOverflowError', data: { message: 'too long' } })).toBe(true)
    expect(marksFinishError({ name: 'MessageAbortedError', data: { message: 'Stopped by the user' } })).toBe(false)
  })
})
