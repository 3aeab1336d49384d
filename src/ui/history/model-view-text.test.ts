import { describe, expect, it } from 'vitest'
import { describeModelMessage, tokenEstimate } from './model-view-text'

describe('describeModelMessage', () => {
  it('reads plain text, tool calls and tool results as text', () => {
    expect(describeModelMessage({ role: 'user', content: 'What did we do so far?' })).toEqual({
      role: 'User',
      blocks: [{ kind: 'text', text: 'What did we do so far?' }],
    })
    expect(
      describeModelMessage({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Listing files.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: { command: 'ls' } },
        ],
      }),
    ).toEqual({
      role: 'Assistant',
      blocks: [
        { kind: 'text', text: 'Listing files.' },
        { kind: 'tool-call', label: 'Tool call: bash', text: '{\n  "command": "ls"\n}' },
      ],
    })
    expect(
      describeModelMessage({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output: { type: 'text', value: '[Old tool result content cleared]' } }],
      }).blocks,
    ).toEqual([{ kind: 'tool-result', label: 'Tool result: bash', text: '[Old tool result content cleared]' }])
  })

  it('shows shapes it does not know raw instead of dropping them', () => {
    const described = describeModelMessage({ role: 'assistant', content: [{ type: 'custom-thing', value: 1 }] })
    expect(described.blocks[0]).toMatchObject({ kind: 'other', label: 'custom-thing' })
    expect(described.blocks[0]!.text).toContain('"value": 1')
    expect(describeModelMessage('odd').role).toBe('Unknown')
  })

  it('words the token estimate', () => {
    expect(tokenEstimate(12345.4)).toBe('≈ 12345 tokens')
  })
})
