import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import type { MessageWithParts } from '../store/message-store'
import { CLEARED_TOOL_TEXT, COMPACTION_QUESTION, INTERRUPTED_TOOL_TEXT, TOOL_MEDIA_TEXT, toModelMessages, toolResultMediaFor } from './model-messages'
import type { Part } from '../core/schema'

const build = makeBuilders()
const sessionID = build.session().id
const current = { providerID: 'openai', modelID: 'gpt-test' }
const part = (message: { id: string }, fields: Record<string, unknown>): Part =>
  ({ id: build.ids.ascending('part'), sessionID, messageID: message.id, ...fields }) as Part
const tool = (message: { id: string }, callID: string, state: Record<string, unknown>) =>
  part(message, { type: 'tool', callID, tool: 'bash', state })

describe('history to model messages', () => {
  it('sends user text and synthetic text, never ignored or empty text', () => {
    const user = build.user(sessionID)
    const history: MessageWithParts[] = [
      {
        info: user,
        parts: [
          build.text(user, 'fix it'),
          part(user, { type: 'text', text: 'contents of a.ts', synthetic: true }),
          part(user, { type: 'text', text: 'private note', ignored: true }),
          part(user, { type: 'text', text: '' }),
        ],
      },
    ]
    expect(toModelMessages(history, current)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'fix it' }, { type: 'text', text: 'contents of a.ts' }] },
    ])
  })

  it('turns a compaction marker into the summary question', () => {
    const user = build.user(sessionID)
    expect(toModelMessages([{ info: user, parts: [part(user, { type: 'compaction', auto: true })] }], current)).toEqual([
      { role: 'user', content: [{ type: 'text', text: COMPACTION_QUESTION }] },
    ])
  })

  it('gives every tool call a result: output, cleared output, interrupted partial output, or an interruption', () => {
    const user = build.user(sessionID)
    const reply = build.assistant(sessionID, user.id, { finish: 'tool-calls' })
    const history: MessageWithParts[] = [
      { info: user, parts: [build.text(user, 'go')] },
      {
        info: reply,
        parts: [
          part(reply, { type: 'step-start' }),
          tool(reply, 'a', { status: 'completed', input: { command: 'ls' }, output: 'a.ts', title: 'ls', metadata: {}, time: { start: 1, end: 2 } }),
          tool(reply, 'b', { status: 'completed', input: {}, output: 'old', title: 'x', metadata: {}, time: { start: 1, end: 2, compacted: 3 } }),
          tool(reply, 'c', { status: 'error', input: {}, error: 'Tool execution aborted', metadata: { interrupted: true, output: 'partial log' }, time: { start: 1, end: 2 } }),
          tool(reply, 'd', { status: 'error', input: {}, error: 'No such file', time: { start: 1, end: 2 } }),
          tool(reply, 'e', { status: 'running', input: { command: 'sleep' }, time: { start: 1 } }),
          tool(reply, 'f', { status: 'pending', input: {}, raw: '' }),
          part(reply, { type: 'step-finish', reason: 'tool-calls', cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } }),
        ],
      },
    ]
    const messages = toModelMessages(history, current)
    expect(messages[1]).toMatchObject({ role: 'assistant' })
    expect((messages[1]!.content as unknown[]).map((item) => (item as { toolCallId: string }).toolCallId)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
    expect(messages[2]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 'bash', output: { type: 'text', value: 'a.ts' } },
        { type: 'tool-result', toolCallId: 'b', toolName: 'bash', output: { type: 'text', value: CLEARED_TOOL_TEXT } },
        { type: 'tool-result', toolCallId: 'c', toolName: 'bash', output: { type: 'text', value: 'partial log' } },
        { type: 'tool-result', toolCallId: 'd', toolName: 'bash', output: { type: 'error-text', value: 'No such file' } },
        { type: 'tool-result', toolCallId: 'e', toolName: 'bash', output: { type: 'error-text', value: INTERRUPTED_TOOL_TEXT } },
        { type: 'tool-result', toolCallId: 'f', toolName: 'bash', output: { type: 'error-text', value: INTERRUPTED_TOOL_TEXT } },
      ],
    })
  })

  it('skips failed replies but keeps a cancelled one that already said something', () => {
    const user = build.user(sessionID)
    const failed = build.assistant(sessionID, user.id, { error: { name: 'APIError', data: { message: 'boom', isRetryable: false } } })
    const cancelledEmpty = build.assistant(sessionID, user.id, { error: { name: 'MessageAbortedError', data: { message: 'x' } } })
    const cancelled = build.assistant(sessionID, user.id, { error: { name: 'MessageAbortedError', data: { message: 'x' } } })
    const messages = toModelMessages(
      [
        { info: user, parts: [build.text(user, 'go')] },
        { info: failed, parts: [build.text(failed, 'half')] },
        { info: cancelledEmpty, parts: [part(cancelledEmpty, { type: 'step-start' }), part(cancelledEmpty, { type: 'reasoning', text: 'hmm', time: { start: 1 } })] },
        { info: cancelled, parts: [build.text(cancelled, 'Partial answer')] },
      ],
      current,
    )
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Partial answer' }] },
    ])
  })

  it('sends reasoning as reasoning to the same model and as text to another', () => {
    const user = build.user(sessionID)
    const reply = build.assistant(sessionID, user.id)
    const history: MessageWithParts[] = [
      { info: user, parts: [build.text(user, 'q')] },
      { info: reply, parts: [part(reply, { type: 'reasoning', text: 'thinking', time: { start: 1, end: 2 } }), build.text(reply, 'answer')] },
    ]
    expect(toModelMessages(history, current)[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'reasoning', text: 'thinking' }, { type: 'text', text: 'answer' }],
    })
    expect(toModelMessages(history, { providerID: 'anthropic', modelID: 'claude' })[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'thinking' }, { type: 'text', text: 'answer' }],
    })
  })

  it('leaves out messages without parts', () => {
    const user = build.user(sessionID)
    expect(toModelMessages([{ info: user, parts: [] }], current)).toEqual([])
  })

  it('names media instead of sending them, and cuts long tool outputs, for the summariser', () => {
    const user = build.user(sessionID)
    const reply = build.assistant(sessionID, user.id)
    const history: MessageWithParts[] = [
      {
        info: user,
        parts: [
          build.text(user, 'look'),
          part(user, { type: 'file', mime: 'image/png', filename: 'shot.png', url: 'data:image/png;base64,AAAA' }),
          part(user, { type: 'file', mime: 'application/pdf', url: 'data:application/pdf;base64,AAAA' }),
        ],
      },
      { info: reply, parts: [tool(reply, 'c1', { status: 'completed', input: {}, output: 'y'.repeat(2_500), title: 't', metadata: {}, time: { start: 1, end: 2 } })] },
    ]
    const messages = toModelMessages(history, current, { stripMedia: true, toolOutputMaxChars: 2_000 })
    expect(messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'text', text: '[Attached image/png: shot.png]' },
        { type: 'text', text: '[Attached application/pdf: file]' },
      ],
    })
    const result = (messages[2] as { content: { output: { value: string } }[] }).content[0]!.output.value
    expect(result).toBe('y'.repeat(2_000) + '\n[Tool output truncated for compaction: omitted 500 chars]')
    // A normal request sends both whole.
    expect(JSON.stringify(toModelMessages(history, current))).toContain('y'.repeat(2_500))
    expect(JSON.stringify(toModelMessages(history, current))).not.toContain('[Attached')
  })

  it('sends user files, images included, as files with their filename', () => {
    const user = build.user(sessionID)
    const history: MessageWithParts[] = [
      {
        info: user,
        parts: [
          build.text(user, 'see'),
          part(user, { type: 'file', mime: 'image/png', filename: 'shot.png', url: 'data:image/png;base64,iVBORw0KGgo=' }),
          part(user, { type: 'file', mime: 'application/pdf', filename: 'spec.pdf', url: 'data:application/pdf;base64,JVBERi0xLjc=' }),
          part(user, { type: 'file', mime: 'text/plain', filename: 'a.ts', url: 'data:text/plain;base64,CCCC' }),
        ],
      },
    ]
    expect(toModelMessages(history, current)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'see' },
          { type: 'file', data: 'data:image/png;base64,iVBORw0KGgo=', mediaType: 'image/png', filename: 'shot.png' },
          { type: 'file', data: 'data:application/pdf;base64,JVBERi0xLjc=', mediaType: 'application/pdf', filename: 'spec.pdf' },
        ],
      },
    ])
  })

  it('names a mentioned or imported file whose bytes are not what its type claims, instead of sending it', () => {
    const user = build.user(sessionID)
    const history: MessageWithParts[] = [
      {
        info: user,
        parts: [
          part(user, { type: 'file', mime: 'application/pdf', filename: 'report.pdf', url: `data:application/pdf;base64,${btoa('PK\x03\x04 an archive')}` }),
          part(user, { type: 'file', mime: 'image/png', filename: 'photo.png', url: `data:image/png;base64,${btoa('<svg onload="steal()"/>')}` }),
          part(user, { type: 'file', mime: 'image/png', filename: 'scan.png', url: 'data:image/png;base64,/9j/4AAQ' }),
        ],
      },
    ]
    expect(toModelMessages(history, current)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'report.pdf: its bytes are a ZIP archive, not a PDF; it was not sent.' },
          { type: 'text', text: 'photo.png: its bytes are text, not a PNG image; it was not sent.' },
          // A JPEG named `.png` goes as the JPEG it is.
          { type: 'file', data: 'data:image/jpeg;base64,/9j/4AAQ', mediaType: 'image/jpeg', filename: 'scan.png' },
        ],
      },
    ])
  })

  it('names a forked or imported file part that points to an address instead of carrying its bytes, and sends no address', () => {
    const user = build.user(sessionID)
    const history: MessageWithParts[] = [
      {
        info: user,
        parts: [
          build.text(user, 'what is in the picture?'),
          part(user, { type: 'file', mime: 'image/png', filename: 'x.png', url: 'http://attacker.test/x.png?s=secret' }),
          part(user, { type: 'file', mime: 'application/pdf', url: 'file:///etc/passwd' }),
          part(user, { type: 'file', mime: 'image/png', filename: 'odd.png', url: 'data:image/png,%89PNG' }),
          part(user, { type: 'file', mime: 'image/png', filename: 'broken.png', url: 'tabcode-blob:not-a-hash' }),
        ],
      },
    ]
    const messages = toModelMessages(history, current)
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is in the picture?' },
          { type: 'text', text: 'x.png: it points to http://attacker.test/x.png?s=secret instead of carrying its bytes; it was not sent.' },
          { type: 'text', text: 'A file: it points to file:///etc/passwd instead of carrying its bytes; it was not sent.' },
          { type: 'text', text: 'odd.png: its data could not be read; it was not sent.' },
          { type: 'text', text: 'broken.png: it points to tabcode-blob:not-a-hash instead of carrying its bytes; it was not sent.' },
        ],
      },
    ])
    expect(JSON.stringify(messages)).not.toContain('"type":"file"')
  })

  it('splits a reply at its step starts: each step is an assistant message followed by its tool results', () => {
    const user = build.user(sessionID)
    const reply = build.assistant(sessionID, user.id)
    const done = { status: 'completed', input: {}, output: 'ok', title: 't', metadata: {}, time: { start: 1, end: 2 } }
    const history: MessageWithParts[] = [
      { info: user, parts: [build.text(user, 'go')] },
      {
        info: reply,
        parts: [
          part(reply, { type: 'step-start' }),
          build.text(reply, 'first'),
          tool(reply, 'a', done),
          part(reply, { type: 'step-finish', reason: 'tool-calls', cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } }),
          part(reply, { type: 'step-start' }),
          tool(reply, 'b', done),
          part(reply, { type: 'step-start' }),
          build.text(reply, 'done'),
        ],
      },
    ]
    const messages = toModelMessages(history, current)
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'])
    expect(messages[1]!.content).toEqual([{ type: 'text', text: 'first' }, { type: 'tool-call', toolCallId: 'a', toolName: 'bash', input: {} }])
    expect((messages[4]!.content as { toolCallId: string }[])[0]!.toolCallId).toBe('b')
    expect(messages[5]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'done' }] })
  })

  it('keeps an empty text between signed reasoning blocks as a space, for the same model only', () => {
    const user = build.user(sessionID)
    const reply = build.assistant(sessionID, user.id)
    const signed = (text: string, signature: string) =>
      part(reply, { type: 'reasoning', text, metadata: { anthropic: { signature } }, time: { start: 1, end: 2 } })
    const history: MessageWithParts[] = [
      { info: user, parts: [build.text(user, 'q')] },
      { info: reply, parts: [signed('one', 's1'), part(reply, { type: 'text', text: '' }), signed('two', 's2'), build.text(reply, 'answer')] },
    ]
    expect(toModelMessages(history, current)[1]!.content).toEqual([
      { type: 'reasoning', text: 'one', providerOptions: { anthropic: { signature: 's1' } } },
      { type: 'text', text: ' ' },
      { type: 'reasoning', text: 'two', providerOptions: { anthropic: { signature: 's2' } } },
      { type: 'text', text: 'answer' },
    ])
    // Another model gets the thoughts as text; there is no signed block to keep in place.
    expect(toModelMessages(history, { providerID: 'google', modelID: 'gemini' })[1]!.content).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
      { type: 'text', text: 'answer' },
    ])
    // A redacted thinking block (no text, only its data) goes back to the same model as it came.
    const redacted = part(reply, { type: 'reasoning', text: '', metadata: { anthropic: { redactedData: 'opaque' } }, time: { start: 1, end: 2 } })
    expect(toModelMessages([history[0]!, { info: reply, parts: [redacted, build.text(reply, 'answer')] }], current)[1]!.content).toEqual([
      { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'opaque' } } },
      { type: 'text', text: 'answer' },
    ])
    // Without signatures an empty text is still left out.
    const plain: MessageWithParts[] = [history[0]!, { info: reply, parts: [part(reply, { type: 'text', text: '' }), build.text(reply, 'answer')] }]
    expect(toModelMessages(plain, current)[1]!.content).toEqual([{ type: 'text', text: 'answer' }])
  })

  it("sends a tool call's provider metadata back to the same model, not to another", () => {
    const user = build.user(sessionID)
    const reply = build.assistant(sessionID, user.id)
    const call = part(reply, {
      type: 'tool',
      callID: 'c1',
      tool: 'read',
      metadata: { google: { thoughtSignature: 'sig' }, providerExecuted: false },
      state: { status: 'completed', input: { filePath: 'a' }, output: 'x', title: 'a', metadata: {}, time: { start: 1, end: 2 } },
    })
    const history: MessageWithParts[] = [
      { info: user, parts: [build.text(user, 'q')] },
      { info: reply, parts: [call] },
    ]
    expect(toModelMessages(history, current)[1]!.content).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { filePath: 'a' }, providerOptions: { google: { thoughtSignature: 'sig' } } },
    ])
    expect(toModelMessages(history, { providerID: 'other', modelID: 'm' })[1]!.content).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { filePath: 'a' } },
    ])
  })

  describe('media a tool returned', () => {
    const user = build.user(sessionID)
    const reply = build.assistant(sessionID, user.id)
    const image = part(reply, { type: 'file', mime: 'image/png', filename: 'logo.png', url: 'data:image/png;base64,iVBORw0KGgo=' })
    const pdf = part(reply, { type: 'file', mime: 'application/pdf', filename: 'spec.pdf', url: 'data:application/pdf;base64,JVBERi0xLjc=' })
    const history: MessageWithParts[] = [
      { info: user, parts: [build.text(user, 'look')] },
      {
        info: reply,
        parts: [
          tool(reply, 'r1', { status: 'completed', input: {}, output: 'Read 2 files', title: 'read', metadata: {}, time: { start: 1, end: 2 }, attachments: [image, pdf] }),
          build.text(reply, 'seen'),
        ],
      },
    ]
    const inResult = {
      image: { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' }, filename: 'logo.png' },
      pdf: { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'JVBERi0xLjc=' }, filename: 'spec.pdf' },
    }
    const inUser = {
      image: { type: 'file', data: 'data:image/png;base64,iVBORw0KGgo=', mediaType: 'image/png', filename: 'logo.png' },
      pdf: { type: 'file', data: 'data:application/pdf;base64,JVBERi0xLjc=', mediaType: 'application/pdf', filename: 'spec.pdf' },
    }
    // Which providers take media in a tool result (opencode's list) and where the rest go: a user message after the reply.
    it.each([
      ['anthropic.messages', 'claude-sonnet-4-5', [inResult.image, inResult.pdf], []],
      ['openai.responses', 'gpt-5', [inResult.image, inResult.pdf], []],
      ['google.generative-ai', 'gemini-3-pro-preview', [inResult.image, inResult.pdf], []],
      ['google.generative-ai', 'gemini-2.5-flash', [], [inUser.image, inUser.pdf]],
      ['xai.chat', 'grok-4', [inResult.image], [inUser.pdf]],
      ['openai.chat', 'gpt-4o', [], [inUser.image, inUser.pdf]],
    ])('%s %s', (provider, modelID, inline, moved) => {
      const messages = toModelMessages(history, current, { toolResultMedia: toolResultMediaFor(provider, modelID) })
      const output = (messages[2]!.content as { output: unknown }[])[0]!.output
      expect(output).toEqual(inline.length ? { type: 'content', value: [{ type: 'text', text: 'Read 2 files' }, ...inline] } : { type: 'text', value: 'Read 2 files' })
      expect(messages.slice(3)).toEqual(moved.length ? [{ role: 'user', content: [{ type: 'text', text: TOOL_MEDIA_TEXT }, ...moved] }] : [])
      expect(messages.map((message) => message.role).slice(0, 3)).toEqual(['user', 'assistant', 'tool'])
    })

    it('become a note to pass on for an OpenAI-compatible server, whose model may see no media', () => {
      const messages = toModelMessages(history, current, { toolResultMedia: toolResultMediaFor('openai-compatible.chat', 'qwen3-coder') })
      expect((messages[2]!.content as { output: unknown }[])[0]!.output).toEqual({
        type: 'text',
        value: [
          'Read 2 files',
          'ERROR: Cannot read logo.png (this model does not support image input). Inform the user.',
          'ERROR: Cannot read spec.pdf (this model does not support file input). Inform the user.',
        ].join('\n'),
      })
      // No user message with the media follows.
      expect(messages).toHaveLength(3)
    })

    it('that are not what their type claims are named in the result, never sent as that type', () => {
      const lying = part(reply, { type: 'file', mime: 'image/png', filename: 'chart.png', url: `data:image/png;base64,${btoa('<svg/>')}` })
      const mixed: MessageWithParts[] = [
        history[0]!,
        { info: reply, parts: [tool(reply, 'r1', { status: 'completed', input: {}, output: 'Read 2 files', title: 'read', metadata: {}, time: { start: 1, end: 2 }, attachments: [lying, image] })] },
      ]
      expect((toModelMessages(mixed, current, { toolResultMedia: 'all' })[2]!.content as { output: unknown }[])[0]!.output).toEqual({
        type: 'content',
        value: [{ type: 'text', text: 'Read 2 files\nchart.png: its bytes are text, not a PNG image; it was not sent.' }, inResult.image],
      })
    })

    it('that only name an address are named in the result, never sent for the SDK or the provider to fetch', () => {
      const linked = part(reply, { type: 'file', mime: 'image/png', filename: 'remote.png', url: 'https://example.test/remote.png?s=secret' })
      const remote: MessageWithParts[] = [
        history[0]!,
        { info: reply, parts: [tool(reply, 'r1', { status: 'completed', input: {}, output: 'x', title: 'read', metadata: {}, time: { start: 1, end: 2 }, attachments: [linked, image] })] },
      ]
      const messages = toModelMessages(remote, current, { toolResultMedia: 'images' })
      expect((messages[2]!.content as { output: unknown }[])[0]!.output).toEqual({
        type: 'content',
        value: [{ type: 'text', text: 'x\nremote.png: it points to https://example.test/remote.png?s=secret instead of carrying its bytes; it was not sent.' }, inResult.image],
      })
      expect(messages).toHaveLength(3)
    })

    it('are dropped from a pruned result and for the summariser', () => {
      const pruned: MessageWithParts[] = [
        history[0]!,
        { info: reply, parts: [tool(reply, 'r1', { status: 'completed', input: {}, output: 'x', title: 'read', metadata: {}, time: { start: 1, end: 2, compacted: 3 }, attachments: [image] })] },
      ]
      expect(toModelMessages(pruned, current, { toolResultMedia: 'all' }).slice(2)).toEqual([
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'r1', toolName: 'bash', output: { type: 'text', value: CLEARED_TOOL_TEXT } }] },
      ])
      expect(JSON.stringify(toModelMessages(history, current, { stripMedia: true }))).not.toContain('iVBO')
    })
  })
})
