import { describe, expect, it } from 'vitest'
import { AGENTS } from '../../core/agent'
import { COMPACTION_QUESTION } from '../model-messages'
import { buildRequest } from './request'
import type { MessageWithParts } from '../../store/message-store'
import { historyBuilder } from '../../testing/test-history'

const environment = { providerID: 'openai', modelID: 'gpt-test', directory: '/workspace', backend: 'local', now: Date.UTC(2026, 10, 30) }
const model = { providerID: 'openai', modelID: 'gpt-test' }

describe('the request built from the history', () => {
  it('sends the compacted history and names the summary it starts from', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    h.marker()
    const summary = h.summary('s1')
    h.user('u2')
    const request = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment })
    expect(request.summaryMessageID).toBe(summary.info.id)
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: COMPACTION_QUESTION }] },
      { role: 'assistant', content: [{ type: 'text', text: 's1' }] },
      { role: 'user', content: [{ type: 'text', text: 'u2' }] },
    ])
    expect(request.system.startsWith(AGENTS.build!.prompt)).toBe(true)
  })

  it('looks past a summary for the agent of the previous turn', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1', { agent: 'plan' })
    h.marker()
    h.summary('s1')
    h.user('u2')
    const request = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment })
    expect(JSON.stringify(request.messages.at(-1))).toContain('You were in plan mode and are now in build mode')
    expect(request.system).not.toContain('<system-reminder>')
  })

  it('puts the plan reminder on the last user message only, as opencode does, and keeps the system prompt as it was (cache)', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    h.user('u2')
    const asBuild = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment })
    const asPlan = buildRequest({ history: h.history, model, agent: AGENTS.plan!, environment })
    const texts = (request: ReturnType<typeof buildRequest>) =>
      request.messages.map((message) => (typeof message.content === 'string' ? message.content : message.content.map((part) => ('text' in part ? part.text : '')).join('|')))
    expect(texts(asPlan)[0]).toBe('u1')
    expect(texts(asPlan).at(-1)).toMatch(/^u2\|<system-reminder>[\s\S]*read-only/)
    expect(texts(asBuild).at(-1)).toBe('u2')
    // The agent's own prompt differs; what follows it (environment, instructions) is the same bytes either way.
    expect(asPlan.system.slice(AGENTS.plan!.prompt.length)).toBe(asBuild.system.slice(AGENTS.build!.prompt.length))
  })

  it('tells the agent to wrap up on its last step', () => {
    const h = historyBuilder()
    h.user('u1')
    const request = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment, lastStep: true })
    expect(JSON.stringify(request.messages.at(-1))).toContain('MAXIMUM STEPS REACHED')
  })

  describe('a stable prefix for the prompt cache', () => {
    // Local times: the date the model is told is the user's calendar day.
    const monday = new Date(2026, 10, 30, 22, 0).getTime()
    const tuesday = new Date(2026, 11, 1, 9, 30).getTime()
    const at = (entry: MessageWithParts, time: number) => void (entry.info.time.created = time)

    it('sends the same system prompt on the next turn, a day later, and tells the new date after the earlier messages', () => {
      const h = historyBuilder()
      at(h.user('u1'), monday)
      h.assistant('a1')
      const first = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment: { ...environment, now: monday } })
      at(h.user('u2'), tuesday)
      const second = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment: { ...environment, now: tuesday } })
      expect(second.system).toBe(first.system)
      expect(second.system).toContain(`Today's date: ${new Date(monday).toDateString()}`)
      // What was sent before is sent again unchanged; the new prompt carries the new date after the user's words.
      expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages)
      expect(second.messages.at(-1)).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'u2' },
          { type: 'text', text: `<system-reminder>\nToday's date is now: ${new Date(tuesday).toDateString()}\n</system-reminder>` },
        ],
      })
      // The turn after that, the same day, adds nothing new before its own prompt.
      h.assistant('a2')
      h.user('u3')
      const third = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment: { ...environment, now: tuesday } })
      expect(third.system).toBe(first.system)
      expect(third.messages.slice(0, second.messages.length)).toEqual(second.messages)
      expect(third.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'u3' }] })
    })

    it("starts from the compaction's day after a compaction, and an older prompt in the kept tail says no date", () => {
      const h = historyBuilder()
      const kept = h.user('u1')
      at(kept, monday)
      h.assistant('a1')
      at(h.marker({ tail_start_id: kept.info.id }), tuesday)
      h.summary('s1')
      const request = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment: { ...environment, now: tuesday } })
      expect(request.system).toContain(`Today's date: ${new Date(tuesday).toDateString()}`)
      expect(JSON.stringify(request.messages)).not.toContain('Today')
    })
  })
})
