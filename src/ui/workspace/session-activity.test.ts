import { describe, expect, it } from 'vitest'
import type { Message, Part } from '../../core/schema'
import { bashCalls, changeMark, turnChanges } from './session-activity'

const user = (id: string, diffs?: { file: string; additions: number; deletions: number }[]): Message => ({
  id,
  sessionID: 'ses_1',
  role: 'user',
  time: { created: 1 },
  agent: 'build',
  model: { providerID: 'p', modelID: 'm' },
  ...(diffs ? { summary: { diffs } } : {}),
})
const assistant = (id: string, completed?: number): Message => ({
  id,
  sessionID: 'ses_1',
  role: 'assistant',
  parentID: 'msg_u1',
  time: { created: 2, ...(completed ? { completed } : {}) },
  modelID: 'm',
  providerID: 'p',
  agent: 'build',
  mode: 'build',
  path: { cwd: '/workspace', root: '/workspace' },
  cost: 0,
  tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
})
const tool = (id: string, messageID: string, name: string): Part => ({
  id,
  sessionID: 'ses_1',
  messageID,
  type: 'tool',
  callID: id,
  tool: name,
  state: { status: 'running', input: { command: 'ls' }, time: { start: 1 } },
})

describe('what the workspace panel reads from a session', () => {
  const messages = [user('msg_u1', [{ file: 'a.ts', additions: 1, deletions: 0 }]), assistant('msg_a1'), user('msg_u2'), assistant('msg_a2', 9)]
  const parts: Record<string, Part[]> = {
    msg_u1: [{ id: 'prt_t', sessionID: 'ses_1', messageID: 'msg_u1', type: 'text', text: 'Add a parser\nwith tests' }],
    msg_a1: [tool('prt_1', 'msg_a1', 'bash'), tool('prt_2', 'msg_a1', 'read')],
    msg_a2: [tool('prt_3', 'msg_a2', 'bash'), { id: 'prt_p', sessionID: 'ses_1', messageID: 'msg_a2', type: 'patch', hash: 'h', files: ['a.ts'] }],
  }
  const partsOf = (id: string) => parts[id] ?? []

  it('takes the bash calls in order', () => {
    expect(bashCalls(messages, partsOf).map((part) => part.id)).toEqual(['prt_1', 'prt_3'])
  })

  it('takes the turns that carry diffs, named by the first line of the prompt', () => {
    expect(turnChanges(messages, partsOf)).toEqual([
      { messageID: 'msg_u1', prompt: 'Add a parser', created: 1, diffs: [{ file: 'a.ts', additions: 1, deletions: 0 }] },
    ])
  })

  it('moves its change mark on a new patch part or a finished turn', () => {
    const before = changeMark(messages, partsOf)
    parts.msg_a2!.push({ id: 'prt_q', sessionID: 'ses_1', messageID: 'msg_a2', type: 'patch', hash: 'h2', files: ['b.ts'] })
    expect(changeMark(messages, partsOf)).not.toBe(before)
  })
})
