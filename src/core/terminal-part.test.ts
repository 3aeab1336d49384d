import { describe, expect, it } from 'vitest'
import type { Part } from './schema'
import { isTerminalPart } from './terminal-part'

const base = { id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1' }

describe('a terminal part', () => {
  it('is text or reasoning once it has an end, a tool call once it completed or failed, any other part at once', () => {
    const parts: Array<[Part, boolean]> = [
      [{ ...base, type: 'text', text: 'typed whole' }, true],
      [{ ...base, type: 'text', text: 'stream', time: { start: 1 } }, false],
      [{ ...base, type: 'text', text: 'streamed', time: { start: 1, end: 2 } }, true],
      [{ ...base, type: 'reasoning', text: 'hmm', time: { start: 1 } }, false],
      [{ ...base, type: 'reasoning', text: 'hmm.', time: { start: 1, end: 2 } }, true],
      [{ ...base, type: 'tool', callID: 'c', tool: 'read', state: { status: 'pending', input: {}, raw: '' } }, false],
      [{ ...base, type: 'tool', callID: 'c', tool: 'read', state: { status: 'running', input: {}, time: { start: 1 } } }, false],
      [{ ...base, type: 'tool', callID: 'c', tool: 'read', state: { status: 'completed', input: {}, output: '', title: '', metadata: {}, time: { start: 1, end: 2 } } }, true],
      [{ ...base, type: 'tool', callID: 'c', tool: 'read', state: { status: 'error', input: {}, error: 'no', time: { start: 1, end: 2 } } }, true],
      [{ ...base, type: 'step-start' }, true],
    ]
    for (const [part, terminal] of parts) expect([part.type, isTerminalPart(part)]).toEqual([part.type, terminal])
  })
})
