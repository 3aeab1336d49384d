import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { makeIdGenerator } from '../../core/id'
import type { MessageWithParts } from '../../store/message-store'
import type { AssistantMessage, Part, SessionInfo, UserMessage } from '../../core/schema'
import { realisticTranscript } from '../testing/realistic-session'
import type { SessionTranscript } from '../transcript'
import { fromOpencodeExport } from './from-opencode'
import { toOpencodeExport, toOpencodeExports } from './to-opencode'

/** A session of ours with one of everything the round trip must keep, plus the fields opencode has no place for. */
function nativeTranscript(): SessionTranscript {
  const ids = makeIdGenerator()
  const start = Date.UTC(2026, 10, 30, 9)
  let time = start
  const tick = () => (time += 137)
  const sessionID = ids.descending('session', start)
  const tokens = (input: number, output: number, reasoning = 0) => ({ input, output, reasoning, cache: { read: 40, write: 2 } })

  const user: UserMessage = {
    id: ids.ascending('message', tick()),
    sessionID,
    role: 'user',
    time: { created: time },
    agent: 'build',
    model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5', variant: 'high' },
    summary: { diffs: [{ file: 'src/a.ts', additions: 3, deletions: 1, status: 'modified' }] },
  }
  const userParts: Part[] = [
    { id: ids.ascending('part', tick()), sessionID, messageID: user.id, type: 'text', text: 'Fix the bug in a.ts, please.' },
    { id: ids.ascending('part', tick()), sessionID, messageID: user.id, type: 'file', mime: 'text/plain', filename: 'a.ts', url: 'data:text/plain;base64,eA==' },
  ]
  const step = (parentID: string, overrides: Partial<AssistantMessage>): AssistantMessage => ({
    id: ids.ascending('message', tick()),
    sessionID,
    role: 'assistant',
    time: { created: time, completed: time + 900 },
    parentID,
    modelID: 'claude-sonnet-4-5',
    providerID: 'anthropic',
    agent: 'build',
    path: { cwd: '/workspace', root: '/workspace' },
    cost: 0,
    tokens: tokens(0, 0),
    ...overrides,
  })
  // No `mode`: ours may omit it, opencode's import requires it.
  const first = step(user.id, { cost: 0.0123, tokens: tokens(1200, 80, 30), finish: 'tool-calls' })
  const firstParts: Part[] = [
    { id: ids.ascending('part', tick()), sessionID, messageID: first.id, type: 'step-start', snapshot: 'snap-1' },
    { id: ids.ascending('part', tick()), sessionID, messageID: first.id, type: 'reasoning', text: 'Look at a.ts first.', time: { start: time, end: time + 50 } },
    {
      id: ids.ascending('part', tick()),
      sessionID,
      messageID: first.id,
      type: 'tool',
      callID: 'toolu_01',
      tool: 'read',
      state: { status: 'completed', input: { filePath: '/workspace/src/a.ts' }, output: '1: let x = 1', title: 'src/a.ts', metadata: { lines: 1 }, time: { start: time, end: time + 20 } },
    },
    {
      id: ids.ascending('part', tick()),
      sessionID,
      messageID: first.id,
      type: 'tool',
      callID: 'toolu_02',
      tool: 'bash',
      state: { status: 'error', input: { command: 'npm test' }, error: 'npm needs WebContainer', metadata: { interrupted: false, output: 'partial' }, time: { start: time, end: time + 5 } },
    },
    { id: ids.ascending('part', tick()), sessionID, messageID: first.id, type: 'step-finish', reason: 'tool-calls', snapshot: 'snap-2', cost: 0.0123, tokens: tokens(1200, 80, 30) },
    { id: ids.ascending('part', tick()), sessionID, messageID: first.id, type: 'patch', hash: 'snap-1', files: ['src/a.ts'] },
  ]
  const second = step(user.id, {
    cost: 0.004,
    tokens: tokens(1300, 20),
    finish: 'interrupted',
    error: { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } },
  })
  const secondParts: Part[] = [
    { id: ids.ascending('part', tick()), sessionID, messageID: second.id, type: 'step-start' },
    { id: ids.ascending('part', tick()), sessionID, messageID: second.id, type: 'text', text: 'Fixed: `x` is now `const`.', time: { start: time, end: time + 9 } },
    { id: ids.ascending('part', tick()), sessionID, messageID: second.id, type: 'step-finish', reason: 'stop', cost: 0.004, tokens: tokens(1300, 20) },
  ]
  const compactUser: UserMessage = { ...user, id: ids.ascending('message', tick()), time: { created: time }, summary: undefined }
  delete compactUser.summary
  const compactParts: Part[] = [{ id: ids.ascending('part', tick()), sessionID, messageID: compactUser.id, type: 'compaction', auto: true, undone: time }]

  const messages: MessageWithParts[] = [
    { info: user, parts: userParts },
    { info: first, parts: firstParts },
    { info: second, parts: secondParts },
    { info: compactUser, parts: compactParts },
  ]
  const info: SessionInfo = {
    id: sessionID,
    slug: 'brave-lynx',
    projectID: 'prj_0190a1b2c3d40000AbCdEfGhIj',
    workspaceID: 'local',
    directory: '/workspace',
    title: 'Fix the bug',
    agent: 'build',
    model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' },
    version: '0.1.0',
    cost: 0.0163,
    tokens: { input: 2500, output: 100, reasoning: 30, cache: { read: 80, write: 4 } },
    fork: { sessionID: ids.descending('session', start - 1000) },
    revert: { messageID: second.id, snapshot: 'snap-2', files: ['src/a.ts'] },
    time: { created: start, updated: time },
  }
  const child: SessionTranscript = {
    info: { ...info, id: ids.descending('session', tick()), parentID: sessionID, title: 'Child', fork: undefined, revert: undefined },
    messages: [],
  }
  return { info, messages, children: [child] }
}

/** What opencode has no field for is dropped on the way out; everything else must come back. */
function withoutOpencodeGaps(transcript: SessionTranscript): SessionTranscript {
  const { fork: _fork, workspaceID: _workspace, revert, ...info } = transcript.info
  return {
    info: { ...info, ...(revert ? { revert: { messageID: revert.messageID, snapshot: revert.snapshot } } : {}) },
    messages: transcript.messages.map(({ info, parts }) => ({
      info: info.role === 'assistant' ? { ...info, mode: info.mode ?? info.agent } : info,
      parts: parts.map((part) => {
        if (part.type !== 'compaction') return part
        const { undone: _undone, ...rest } = part
        return rest
      }),
    })),
  }
}

/** Through a file and back, the way a user would move it. */
const roundTrip = (transcript: SessionTranscript) => fromOpencodeExport(JSON.parse(JSON.stringify(toOpencodeExport(transcript))))

describe('toOpencodeExport', () => {
  test('ours → opencode → ours keeps text, reasoning, tools, usage, errors and order', () => {
    const original = nativeTranscript()
    const back = roundTrip(original)
    expect(back).toEqual(withoutOpencodeGaps({ ...original, children: undefined }))

    const parts = back.messages.flatMap((message) => message.parts)
    expect(parts.map((part) => part.type)).toEqual(original.messages.flatMap((message) => message.parts.map((part) => part.type)))
    expect(parts.find((part) => part.type === 'tool' && part.state.status === 'error')).toMatchObject({
      callID: 'toolu_02',
      state: { input: { command: 'npm test' }, error: 'npm needs WebContainer' },
    })
    expect(back.messages[2]!.info).toMatchObject({ finish: 'interrupted', error: { name: 'MessageAbortedError' }, cost: 0.004 })
  })

  test('a long text-only session survives unchanged', () => {
    const original = realisticTranscript()
    expect(roundTrip(original)).toEqual(original)
  })

  test('writes what opencode import requires: mode on every assistant message, the model as {id, providerID}', () => {
    const exported = toOpencodeExport(nativeTranscript())
    for (const { info } of exported.messages) if (info.role === 'assistant') expect(info.mode).toBe('build')
    expect(exported.info.model).toEqual({ id: 'claude-sonnet-4-5', providerID: 'anthropic' })
    expect(exported.info).not.toHaveProperty('fork')
    expect(exported.info).not.toHaveProperty('workspaceID')
    expect(exported.info.revert).toEqual({ messageID: exported.messages[2]!.info.id, snapshot: 'snap-2' })
    expect(exported.messages[3]!.parts[0]).toEqual(expect.not.objectContaining({ undone: expect.anything() }))
    // Our ids go out as they are: opencode checks only the prefix.
    expect(exported.info.id).toMatch(/^ses_/)
    expect(exported.messages.every(({ info, parts }) => info.id.startsWith('msg_') && parts.every((part) => part.id.startsWith('prt_')))).toBe(true)
  })

  test('real opencode exports come back out exactly as opencode wrote them', () => {
    for (const name of ['text-only', 'reasoning', 'tool-calls', 'multi-step']) {
      const raw = JSON.parse(readFileSync(new URL(`../../../e2e/testing/opencode/${name}.json`, import.meta.url), 'utf8'))
      expect(JSON.parse(JSON.stringify(toOpencodeExport(fromOpencodeExport(raw))))).toEqual(raw)
    }
  })

  test('a stopped command is exported in opencode\'s shape, also when it was stored with the flag older versions added', () => {
    const transcript = nativeTranscript()
    const reply = transcript.messages[2]!
    const stoppedOutput = 'compiling\n\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>'
    const command = (id: string, metadata: Record<string, unknown>): Part => ({
      id,
      sessionID: reply.info.sessionID,
      messageID: reply.info.id,
      type: 'tool',
      callID: `call_${id}`,
      tool: 'bash',
      state: { status: 'completed', input: { command: 'make' }, output: stoppedOutput, title: 'make', metadata, time: { start: 1, end: 2 } },
    })
    const interrupted: Part = {
      id: `${reply.parts[0]!.id}c`,
      sessionID: reply.info.sessionID,
      messageID: reply.info.id,
      type: 'tool',
      callID: 'call_read',
      tool: 'read',
      state: { status: 'error', input: {}, error: 'Tool execution aborted', metadata: { interrupted: true }, time: { start: 1, end: 2 } },
    }
    reply.parts.splice(1, 0, command(`${reply.parts[0]!.id}a`, { output: 'compiling\n', exit: 130, description: 'make', interrupted: true }), command(`${reply.parts[0]!.id}b`, { output: 'compiling\n', exit: 130, description: 'make' }), interrupted)
    const exported = toOpencodeExport(transcript).messages[2]!.parts
    const states = exported.flatMap((part) => (part.type === 'tool' ? [part.state] : []))
    // Old row and new row leave the same way: opencode's metadata, the note in the output.
    expect(states.slice(0, 2)).toEqual([
      { status: 'completed', input: { command: 'make' }, output: stoppedOutput, title: 'make', metadata: { output: 'compiling\n', exit: 130, description: 'make' }, time: { start: 1, end: 2 } },
      { status: 'completed', input: { command: 'make' }, output: stoppedOutput, title: 'make', metadata: { output: 'compiling\n', exit: 130, description: 'make' }, time: { start: 1, end: 2 } },
    ])
    // The flag cleanup puts on an abandoned call is opencode's own, and stays.
    expect(states[2]).toMatchObject({ status: 'error', metadata: { interrupted: true } })
  })

  test('toOpencodeExports gives the child sessions as documents of their own, parent first', () => {
    const transcript = nativeTranscript()
    const documents = toOpencodeExports(transcript)
    expect(documents.map((document) => document.info.id)).toEqual([transcript.info.id, transcript.children![0]!.info.id])
    expect(documents[1]!.info.parentID).toBe(transcript.info.id)
  })
})
