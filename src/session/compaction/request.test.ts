import { describe, expect, it } from 'vitest'
import { AGENTS } from '../../core/agent'
import { COMPACTION_QUESTION } from '../model-messages'
import { buildRequest } from './request'
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
    expect(request.system).toContain('You were in plan mode and are now in build mode')
  })

  it('tells the agent to wrap up on its last step', () => {
    const h = historyBuilder()
    h.user('u1')
    const request = buildRequest({ history: h.history, model, agent: AGENTS.build!, environment, lastStep: true })
    expect(JSON.stringify(request.messages.at(-1))).toContain('MAXIMUM STEPS REACHED')
  })
})
