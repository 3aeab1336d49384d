import { describe, expect, it } from 'vitest'
import type { Part } from '../../core/schema'
import { makeBuilders } from '../../testing/fixture-builders'
import { unansweredPrompt } from './unanswered-prompt'

const build = makeBuilders()
const sessionID = build.session().id
const idle = { running: false, readOnly: false, reverted: false, parts: () => [] }

describe('the newest prompt nothing answers', () => {
  it('is the newest prompt with no reply while the session is idle', () => {
    const first = build.user(sessionID)
    const reply = build.assistant(sessionID, first.id)
    const joined = build.user(sessionID)
    expect(unansweredPrompt({ ...idle, messages: [first, reply, joined] })).toBe(joined.id)
    expect(unansweredPrompt({ ...idle, messages: [first] })).toBe(first.id)
  })

  it('is none while a turn runs, in a read-only session, under a revert, or once a reply follows', () => {
    const prompt = build.user(sessionID)
    expect(unansweredPrompt({ ...idle, messages: [prompt], running: true })).toBeUndefined()
    expect(unansweredPrompt({ ...idle, messages: [prompt], readOnly: true })).toBeUndefined()
    expect(unansweredPrompt({ ...idle, messages: [prompt], reverted: true })).toBeUndefined()
    expect(unansweredPrompt({ ...idle, messages: [prompt, build.assistant(sessionID, prompt.id)] })).toBeUndefined()
    expect(unansweredPrompt({ ...idle, messages: [] })).toBeUndefined()
  })

  it('is none for a compaction marker waiting for its summary', () => {
    const marker = build.user(sessionID)
    const compaction: Part = { id: build.ids.ascending('part'), sessionID, messageID: marker.id, type: 'compaction', auto: true }
    expect(unansweredPrompt({ ...idle, messages: [marker], parts: (id) => (id === marker.id ? [compaction] : []) })).toBeUndefined()
  })
})
