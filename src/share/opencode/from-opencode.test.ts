import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { MessageSchema, PartSchema, SessionInfoSchema, type Part, type ToolPart } from '../../core/schema'
import { NotAnOpencodeExportError, OpencodeExportInvalidError } from './errors'
import { fromOpencodeExport, fromOpencodeExports } from './from-opencode'

const FIXTURES = ['text-only', 'reasoning', 'tool-calls', 'multi-step', 'multi-step-child'] as const

/** A real `opencode export`, as committed under e2e/testing/opencode/ (see its README). */
function fixture(name: (typeof FIXTURES)[number]): any {
  return JSON.parse(readFileSync(new URL(`../../../e2e/testing/opencode/${name}.json`, import.meta.url), 'utf8'))
}

const partsOf = (transcript: ReturnType<typeof fromOpencodeExport>): Part[] => transcript.messages.flatMap((message) => message.parts)
const tools = (transcript: ReturnType<typeof fromOpencodeExport>) =>
  partsOf(transcript).filter((part): part is ToolPart => part.type === 'tool')

describe('real opencode exports', () => {
  test.each(FIXTURES)('%s converts with every message and part mapped to its own type', (name) => {
    const raw = fixture(name)
    const transcript = fromOpencodeExport(raw)

    expect(SessionInfoSchema.parse(transcript.info).id).toBe(raw.info.id)
    expect(transcript.messages).toHaveLength(raw.messages.length)
    transcript.messages.forEach((message, index) => {
      const original = raw.messages[index]
      expect(MessageSchema.parse(message.info)).toMatchObject({ id: original.info.id, role: original.info.role })
      expect(message.parts.map((part) => [part.id, part.type])).toEqual(original.parts.map((part: any) => [part.id, part.type]))
      for (const part of message.parts) {
        expect(PartSchema.parse(part)).toBeTruthy()
        expect(part.messageID).toBe(message.info.id)
        expect(part.sessionID).toBe(transcript.info.id)
        // Notes are what unknown parts become; a real export must have none.
        expect(part.type === 'text' && part.metadata?.opencode).toBeFalsy()
      }
    })
  })

  test('text, reasoning and usage come through', () => {
    const text = fromOpencodeExport(fixture('text-only'))
    expect(text.info.title).toBe('Greeting the user')
    expect(text.messages[0]!.parts[0]).toMatchObject({ type: 'text', text: 'Say hello' })
    expect(text.messages[1]!.parts.find((part) => part.type === 'text')).toMatchObject({
      text: 'Hello! I am ready to help with this project. What would you like to change?',
    })

    const reasoning = fromOpencodeExport(fixture('reasoning'))
    const answer = reasoning.messages[1]!
    expect(answer.parts.map((part) => part.type)).toEqual(['step-start', 'reasoning', 'text', 'step-finish'])
    expect(answer.parts[1]).toMatchObject({ type: 'reasoning', text: expect.stringContaining('Listing: 2, 3, 5, 7') })
    expect(answer.info).toMatchObject({ role: 'assistant', finish: 'stop', modelID: 'mock-model', providerID: 'mock' })
    const finish = answer.parts[3]
    expect(finish?.type === 'step-finish' && finish.tokens.input + finish.tokens.cache.read).toBeGreaterThan(0)
    expect(finish?.type === 'step-finish' && finish.cost).toBeGreaterThan(0)
    expect(reasoning.info.cost).toBeCloseTo(answer.info.role === 'assistant' ? answer.info.cost : NaN)
  })

  test('tool calls keep their input, output and errors', () => {
    const transcript = fromOpencodeExport(fixture('tool-calls'))
    const [write, read, bash] = tools(transcript)
    expect(write).toMatchObject({
      tool: 'write',
      callID: 'call_write_1',
      state: { status: 'completed', input: { content: '# Notes\n\n- first item\n' }, output: 'Wrote file successfully.' },
    })
    expect(read).toMatchObject({ tool: 'read', state: { status: 'error', error: expect.stringContaining('File not found') } })
    expect(bash).toMatchObject({ tool: 'bash', state: { status: 'completed', metadata: { exit: 0 }, output: expect.stringContaining('notes.md') } })
    expect(partsOf(transcript).find((part) => part.type === 'patch')).toMatchObject({ files: [expect.stringMatching(/notes\.md$/)] })
  })

  test('a multi-step turn keeps its steps, its diffs and the subagent it started', () => {
    const transcript = fromOpencodeExport(fixture('multi-step'))
    expect(transcript.messages.map((message) => message.info.role).join(' ')).toBe(
      'user assistant assistant assistant assistant assistant user assistant',
    )
    expect(tools(transcript).map((part) => part.tool)).toEqual(['read', 'edit', 'glob', 'grep', 'task'])
    const first = transcript.messages[0]!.info
    expect(first.role === 'user' && first.summary?.diffs[0]).toMatchObject({ file: 'README.md', additions: 1, deletions: 1 })
    const assistants = transcript.messages.filter((message) => message.info.role === 'assistant')
    for (const message of assistants.slice(0, 5)) {
      expect(message.info.role === 'assistant' && message.info.parentID).toBe(first.id)
    }

    const [root] = fromOpencodeExports([fixture('multi-step-child'), fixture('multi-step')])
    expect(root?.info.id).toBe(transcript.info.id)
    expect(root?.children?.map((child) => child.info.title)).toEqual(['Check the heading (@general subagent)'])
    const task = tools(root!).find((part) => part.tool === 'task')
    expect(task?.state.status === 'completed' && task.state.metadata.sessionId).toBe(root?.children?.[0]?.info.id)
  })
})

interface LooseExport {
  info: Record<string, any>
  messages: { info: Record<string, any>; parts: any[] }[]
}

/** A small export written by hand, to bend one field at a time. */
function minimal(): LooseExport {
  const sessionID = 'ses_dd4579924ffeSwdUJrATXiFYHE'
  return {
    info: { id: sessionID, slug: 'calm-otter', projectID: 'global', directory: '/p', title: 'T', version: '1.0.0', time: { created: 10, updated: 20 } },
    messages: [
      {
        info: { id: 'msg_1', sessionID, role: 'user', time: { created: 11 }, agent: 'build', model: { providerID: 'p', modelID: 'm' } },
        parts: [{ id: 'prt_1', sessionID, messageID: 'msg_1', type: 'text', text: 'hi' }],
      },
      {
        info: {
          id: 'msg_2',
          sessionID,
          role: 'assistant',
          parentID: 'msg_1',
          time: { created: 12, completed: 13 },
          modelID: 'm',
          providerID: 'p',
          agent: 'build',
          mode: 'build',
          path: { cwd: '/p', root: '/p' },
          cost: 0.5,
          tokens: { input: 1, output: 2, reasoning: 0, cache: { read: 0, write: 0 } },
        },
        parts: [{ id: 'prt_2', sessionID, messageID: 'msg_2', type: 'text', text: 'hello' }],
      },
    ],
  }
}

describe('tolerance', () => {
  test('a part type we do not know becomes a visible note that keeps the original', () => {
    const input = minimal()
    input.messages[1]!.parts.push({ id: 'prt_3', type: 'hologram', beam: { color: 'blue' } })
    const note = fromOpencodeExport(input).messages[1]!.parts[1]!
    expect(PartSchema.parse(note)).toMatchObject({ id: 'prt_3', type: 'text', synthetic: true, ignored: true })
    expect(note.type === 'text' && note.text).toContain('"hologram"')
    expect(note.type === 'text' && note.text).toContain('"color": "blue"')
    expect(note.type === 'text' && note.metadata).toEqual({ opencode: { unsupportedPart: { type: 'hologram', beam: { color: 'blue' } } } })
  })

  test('a known part too broken to keep becomes a note; other parts are unaffected', () => {
    const input = minimal()
    input.messages[1]!.parts.push({ id: 'prt_3', type: 'tool', state: { status: 'completed' } }, 'not even an object')
    const parts = fromOpencodeExport(input).messages[1]!.parts
    expect(parts.map((part) => part.type)).toEqual(['text', 'text', 'text'])
    expect(parts[1]?.type === 'text' && parts[1].text).toContain('"tool"')
    expect(parts[2]?.type === 'text' && parts[2].text).toContain('"unknown"')
    expect(parts[0]).toMatchObject({ text: 'hello' })
  })

  test('older rows without the fields later versions added get defaults', () => {
    const sessionID = 'ses_old'
    const transcript = fromOpencodeExport({
      info: { id: sessionID, title: 'Old one', time: { created: 5 } },
      messages: [
        { info: { id: 'msg_a', sessionID, role: 'user', time: { created: 6 } }, parts: [{ id: 'prt_a', type: 'text', text: 'q' }] },
        {
          info: { id: 'msg_b', sessionID, role: 'assistant', time: { created: 7 }, modelID: 'm', providerID: 'p', mode: 'plan', system: ['old'] },
          parts: [
            { id: 'prt_b', type: 'reasoning', text: 'thinking' },
            { id: 'prt_c', type: 'tool', callID: 'c1', tool: 'bash', state: { status: 'completed', input: { command: 'ls' }, output: 'a\nb' } },
            { id: 'prt_d', type: 'step-finish', tokens: { input: 3, output: 4 } },
          ],
        },
      ],
    })
    expect(transcript.info).toMatchObject({ slug: 'imported', projectID: 'global', directory: '/', version: 'unknown', time: { created: 5, updated: 5 } })
    expect(transcript.messages[0]!.info).toMatchObject({ agent: 'build', model: { providerID: 'unknown', modelID: 'unknown' } })
    expect(transcript.messages[1]!.info).toMatchObject({ agent: 'plan', mode: 'plan', parentID: 'msg_a', cost: 0, path: { cwd: '/' } })
    expect(transcript.messages[1]!.parts).toMatchObject([
      { type: 'reasoning', time: { start: 7 } },
      { type: 'tool', state: { status: 'completed', output: 'a\nb', title: '', metadata: {}, time: { start: 7, end: 7 } } },
      { type: 'step-finish', reason: 'stop', cost: 0, tokens: { input: 3, output: 4, reasoning: 0, cache: { read: 0, write: 0 } } },
    ])
  })

  test('newer values we have no name for are mapped to the nearest one we have', () => {
    const input = minimal()
    Object.assign(input.messages[1]!.info, { finish: 'paused', error: { name: 'QuotaError', data: { message: 'out of credit' } } })
    input.messages[1]!.parts.push({ id: 'prt_3', type: 'tool', callID: 'c', tool: 'bash', state: { status: 'queued', input: { command: 'x' } } })
    const [, answer] = fromOpencodeExport(input).messages
    expect(answer!.info).toMatchObject({ finish: 'other', error: { name: 'UnknownError', data: { message: 'out of credit' } } })
    expect(answer!.parts[1]).toMatchObject({ type: 'tool', state: { status: 'error', input: { command: 'x' }, error: expect.stringContaining('queued') } })
  })

  test('ids that do not fit ours are replaced, and every reference follows', () => {
    const input = minimal()
    input.messages[0]!.info.id = 'msg-1'
    input.messages[1]!.info.parentID = 'msg-1'
    input.messages[1]!.parts[0]!.id = 'part 2'
    const transcript = fromOpencodeExport(input)
    const [question, answer] = transcript.messages
    expect(question!.info.id).toMatch(/^msg_[0-9A-Za-z]+$/)
    expect(answer!.info.role === 'assistant' && answer!.info.parentID).toBe(question!.info.id)
    expect(question!.parts[0]!.messageID).toBe(question!.info.id)
    expect(answer!.parts[0]!.id).toMatch(/^prt_[0-9A-Za-z]+$/)
    expect(answer!.info.id).toBe('msg_2')

    const foreignSession = fromOpencodeExport({ ...minimal(), info: { ...minimal().info, id: 'session-1', parentID: 'nope' } })
    expect(foreignSession.info.id).toMatch(/^ses_[0-9A-Za-z]+$/)
    expect(foreignSession.info.parentID).toBeUndefined()
    expect(foreignSession.messages.flatMap((message) => [message.info.sessionID, ...message.parts.map((part) => part.sessionID)])).toEqual(
      Array(4).fill(foreignSession.info.id),
    )
  })

  test('the JSON text itself and the share-page row list are read too', () => {
    const input = minimal()
    expect(fromOpencodeExport(JSON.stringify(input)).messages).toHaveLength(2)
    const rows = [
      { type: 'session', data: input.info },
      ...input.messages.map((message) => ({ type: 'message', data: message.info })),
      ...input.messages.flatMap((message) => message.parts.map((part) => ({ type: 'part', data: part }))),
    ]
    const transcript = fromOpencodeExport(rows)
    expect(transcript.messages.map((message) => message.parts.map((part) => part.type === 'text' && part.text))).toEqual([['hi'], ['hello']])
  })
})

describe('inputs that are not opencode exports', () => {
  test.each([
    ['text that is not JSON', 'hello {', 'the text is not JSON'],
    ['a number', 42, 'it is not a JSON object'],
    ['null', null, 'it is not a JSON object'],
    ['a list of something else', [1, 2], 'it is a list, not a session'],
    ['a tabcode export', { format: 'tabcode-session', version: 1, session: {} }, 'it is a tabcode export; open it as one'],
    ['an object without messages', { info: { id: 'ses_x' } }, 'it has no session "info" and "messages"'],
  ])('%s: NotAnOpencodeExportError', (_label, input, reason) => {
    let error: unknown
    try {
      fromOpencodeExport(input)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(NotAnOpencodeExportError)
    expect(error).toMatchObject({ name: 'NotAnOpencodeExportError', data: { reason } })
  })

  test('broken exports name what is wrong: OpencodeExportInvalidError', () => {
    const noID = { ...minimal(), info: { ...minimal().info, id: '' } }
    expect(() => fromOpencodeExport(noID)).toThrow(OpencodeExportInvalidError)
    expect(() => fromOpencodeExport(noID)).toThrow(/the session has no id/)

    const strangeRole = minimal()
    strangeRole.messages[0]!.info.role = 'system'
    expect(() => fromOpencodeExport(strangeRole)).toThrow(/messages\.0\.info\.role/)

    const orphan = minimal()
    orphan.messages.shift()
    expect(() => fromOpencodeExport(orphan)).toThrow(expect.objectContaining({ name: 'OpencodeExportInvalidError', message: expect.stringContaining('answers no user message') }))

  })
})
