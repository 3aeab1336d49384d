import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { MEDIA_TOKENS, presendVerdict, requestTokens } from './presend'

const LIMIT = { context: 10_000, output: 2_000 } // 8,000 usable
const verdict = (estimate: number, overrides: Partial<Parameters<typeof presendVerdict>[0]> = {}) =>
  presendVerdict({ estimate, limit: LIMIT, auto: true, compacted: false, onlyPrompt: false, ...overrides })

describe('the size of a request before it is sent', () => {
  it('counts a quarter of the JSON of the system prompt, the messages and the tool definitions', () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'x'.repeat(4_000) }]
    const tools = [{ type: 'function', name: 'read', description: 'd'.repeat(2_000), inputSchema: {} }]
    const bare = requestTokens({ system: '', messages: [], tools: [] })
    expect(requestTokens({ system: 's'.repeat(400), messages: [], tools: [] }) - bare).toBe(100)
    expect(requestTokens({ system: '', messages, tools: [] }) - bare).toBeGreaterThanOrEqual(1_000)
    expect(requestTokens({ system: '', messages, tools })).toBeGreaterThan(requestTokens({ system: '', messages, tools: [] }) + 500)
  })

  it('counts an attached file as a fixed amount, not as the length of its base64', () => {
    const image = `data:image/png;base64,${'A'.repeat(400_000)}`
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'file', data: image, mediaType: 'image/png' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'read', output: { type: 'content', value: [{ type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'B'.repeat(400_000) } }] } }] },
    ] as ModelMessage[]
    const estimate = requestTokens({ system: '', messages, tools: [] })
    expect(estimate).toBeGreaterThanOrEqual(2 * MEDIA_TOKENS)
    expect(estimate).toBeLessThan(2 * MEDIA_TOKENS + 200)
  })

  it('counts text that quotes a file part as text', () => {
    const quoted = JSON.stringify({ type: 'file', data: 'C'.repeat(4_000) })
    const estimate = requestTokens({ system: '', messages: [{ role: 'user', content: quoted }], tools: [] })
    expect(estimate).toBeGreaterThan(1_000)
    expect(estimate).toBeLessThan(MEDIA_TOKENS)
  })
})

describe('whether a request is sent as built', () => {
  it('sends what fits, compacts what does not, and with automatic compaction off refuses it with what to do', () => {
    expect(verdict(7_999)).toEqual({ action: 'send' })
    expect(verdict(8_000)).toEqual({ action: 'compact' })
    expect(verdict(50_000, { auto: false })).toEqual({
      action: 'stop',
      error: { name: 'ContextOverflowError', data: { message: expect.stringMatching(/^The conversation no longer fits the model's context \(about 50000 tokens estimated, 8000 usable\)\. Automatic compaction is off/) } },
    })
  })

  it('leaves the provider to decide when compacting could not help or the context is unknown', () => {
    expect(verdict(50_000, { compacted: true })).toEqual({ action: 'send' })
    expect(verdict(50_000, { compacted: true, auto: false })).toEqual({ action: 'send' })
    expect(verdict(50_000, { onlyPrompt: true })).toEqual({ action: 'send' })
    expect(verdict(50_000, { limit: { context: 0, output: 0 } })).toEqual({ action: 'send' })
  })
})
