import { describe, expect, it } from 'vitest'
import type { Part } from '../../core/schema'
import { makeBuilders } from '../../testing/fixture-builders'
import { strandedPrompt } from './stranded-prompt'

const build = makeBuilders()
const session = build.session()
const sessionID = session.id
const idle = { session, running: false, parts: () => [] }

describe('the stranded prompt: the newest prompt nothing answers or works on', () => {
  it('is the newest prompt with no reply while the session is idle', () => {
    const first = build.user(sessionID)
    const reply = build.assistant(sessionID, first.id)
    const joined = build.user(sessionID)
    expect(strandedPrompt({ ...idle, messages: [first, reply, joined] })).toBe(joined.id)
    expect(strandedPrompt({ ...idle, messages: [first] })).toBe(first.id)
  })

  it('is none while a turn runs, in an imported session, under a revert, or once a reply follows', () => {
    const prompt = build.user(sessionID)
    expect(strandedPrompt({ ...idle, messages: [prompt], running: true })).toBeUndefined()
    expect(strandedPrompt({ ...idle, session: { ...session, metadata: { import: { source: 'link', time: 1 } } }, messages: [prompt] })).toBeUndefined()
    expect(strandedPrompt({ ...idle, session: { ...session, revert: { messageID: prompt.id } }, messages: [prompt] })).toBeUndefined()
    expect(strandedPrompt({ ...idle, messages: [prompt, build.assistant(sessionID, prompt.id)] })).toBeUndefined()
    expect(strandedPrompt({ ...idle, messages: [] })).toBeUndefined()
    expect(strandedPrompt({ ...idle, session: undefined, messages: [prompt] })).toBeUndefined()
  })

  it('is none for a compaction marker waiting for its summary', () => {
    const marker = build.user(sessionID)
    const compaction: Part = { id: build.ids.ascending('part'), sessionID, messageID: marker.id, type: 'compaction', auto: true }
    expect(strandedPrompt({ ...idle, messages: [marker], parts: (id) => (id === marker.id ? [compaction] : []) })).toBeUndefined()
  })

  it('is none for a prompt a fork copied, and the prompt the user stored in the fork afterwards is theirs', () => {
    const copied = build.user(sessionID)
    const fork = { ...session, fork: { sessionID: build.session().id }, time: { created: build.now() + 10, updated: build.now() + 10 } }
    expect(strandedPrompt({ ...idle, session: fork, messages: [copied] })).toBeUndefined()
    const own = build.user(sessionID, { time: { created: fork.time.created + 5 } })
    expect(strandedPrompt({ ...idle, session: fork, messages: [copied, own] })).toBe(own.id)
  })
})
