import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import type { MessageWithParts } from '../store/message-store'
import type { ModelReference, Part } from '../core/schema'
import { streamModelCall } from './model-call'
import { toModelMessages } from './model-messages'

// Message conversion per provider, each row naming the opencode rule it follows (its `toModelMessages`, the AI SDK's
// `convertToModelMessages` it hands its UI messages to, and its provider transform) or the difference it documents
// (docs/differences-from-opencode.md).

const build = makeBuilders()
const sessionID = build.session().id

interface Provider {
  name: string
  /** The SDK's provider name, as `createLanguageModel` gives it. */
  sdk: string
  model: ModelReference
  /** The provider metadata its SDK stores on a tool call and on a text part. */
  callMetadata: Record<string, Record<string, unknown>>
  textMetadata: Record<string, Record<string, unknown>>
}

const PROVIDERS: Provider[] = [
  {
    name: 'Anthropic',
    sdk: 'anthropic.messages',
    model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' },
    callMetadata: { anthropic: { caller: { type: 'direct' } } },
    textMetadata: { anthropic: { citations: [] } },
  },
  {
    name: 'OpenAI',
    sdk: 'openai.responses',
    model: { providerID: 'openai', modelID: 'gpt-5' },
    callMetadata: { openai: { itemId: 'fc_1' } },
    textMetadata: { openai: { itemId: 'msg_1' } },
  },
  {
    name: 'Google',
    sdk: 'google.generative-ai',
    model: { providerID: 'google', modelID: 'gemini-3-pro' },
    callMetadata: { google: { thoughtSignature: 'call-sig' } },
    textMetadata: { google: { thoughtSignature: 'text-sig' } },
  },
  {
    name: 'an OpenAI-compatible server',
    sdk: 'openai-compatible.chat',
    model: { providerID: 'local', modelID: 'qwen3' },
    callMetadata: { openaiCompatible: { reasoning: 'kept' } },
    textMetadata: { openaiCompatible: { reasoning: 'kept' } },
  },
]

const OTHER_MODEL: ModelReference = { providerID: 'elsewhere', modelID: 'other' }

function reply(provider: Provider, parts: (message: { id: string }) => Record<string, unknown>[]): MessageWithParts[] {
  const user = build.user(sessionID)
  const assistant = build.assistant(sessionID, user.id, { providerID: provider.model.providerID, modelID: provider.model.modelID })
  const part = (fields: Record<string, unknown>) => ({ id: build.ids.ascending('part'), sessionID, messageID: assistant.id, ...fields }) as Part
  return [
    { info: user, parts: [build.text(user, 'go')] },
    { info: assistant, parts: parts(assistant).map(part) },
  ]
}

const completed = { status: 'completed', input: { command: 'ls' }, output: 'a.ts', title: 'ls', metadata: {}, time: { start: 1, end: 2 } }
const failed = { status: 'error', input: { command: 'ls' }, error: 'No such file', time: { start: 1, end: 2 } }
const running = { status: 'running', input: { command: 'ls' }, time: { start: 1 } }

const toolResults = (messages: ModelMessage[]) => messages.filter((message) => message.role === 'tool').flatMap((message) => message.content)

describe.each(PROVIDERS)('conversion for $name', (provider) => {
  const convert = (history: MessageWithParts[], model = provider.model) => toModelMessages(history, model, { provider: provider.sdk })

  it.each([
    ['a completed', completed],
    ['a failed', failed],
    ['an interrupted (running)', running],
  ])(
    "opencode (SDK convertToModelMessages: callProviderMetadata goes on the call and its result): %s tool's provider metadata reaches its result, without tabcode's providerExecuted",
    (_state, state) => {
      const history = reply(provider, () => [{ type: 'tool', callID: 'c1', tool: 'bash', metadata: { ...provider.callMetadata, providerExecuted: false }, state }])
      const [result] = toolResults(convert(history))
      expect(result).toMatchObject({ type: 'tool-result', toolCallId: 'c1', providerOptions: provider.callMetadata })
    },
  )

  it("opencode (differentModel drops callProviderMetadata): another model's tool result goes without the metadata", () => {
    const history = reply(provider, () => [{ type: 'tool', callID: 'c1', tool: 'bash', metadata: provider.callMetadata, state: completed }])
    const [result] = toolResults(convert(history, OTHER_MODEL))
    expect(result).not.toHaveProperty('providerOptions')
  })

  it('opencode (every user file part carries `filename`): an image and a PDF go with their file names', () => {
    const user = build.user(sessionID)
    const file = (mime: string, filename: string, url: string) => ({ id: build.ids.ascending('part'), sessionID, messageID: user.id, type: 'file', mime, filename, url }) as Part
    const history: MessageWithParts[] = [
      {
        info: user,
        parts: [build.text(user, 'look'), file('image/png', 'shot.png', 'data:image/png;base64,iVBORw0KGgo='), file('application/pdf', 'spec.pdf', 'data:application/pdf;base64,JVBERi0xLjc=')],
      },
    ]
    expect(convert(history)[0]!.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'file', data: 'data:image/png;base64,iVBORw0KGgo=', mediaType: 'image/png', filename: 'shot.png' },
      { type: 'file', data: 'data:application/pdf;base64,JVBERi0xLjc=', mediaType: 'application/pdf', filename: 'spec.pdf' },
    ])
  })
})

describe('empty assistant text parts, per provider', () => {
  const [anthropic, openai, google, compatible] = PROVIDERS as [Provider, Provider, Provider, Provider]
  const signed = (text: string, signature: string) => ({ type: 'reasoning', text, metadata: { anthropic: { signature } }, time: { start: 1, end: 2 } })
  const content = (provider: Provider, history: MessageWithParts[], model = provider.model) =>
    toModelMessages(history, model, { provider: provider.sdk }).find((message) => message.role === 'assistant')?.content

  it('opencode (Anthropic transform drops empty text; v1.17 sends it as a space beside signed thinking): Anthropic keeps an empty text between signed blocks as " "', () => {
    const history = reply(anthropic, () => [signed('one', 's1'), { type: 'text', text: '' }, signed('two', 's2'), { type: 'text', text: 'answer' }])
    expect(content(anthropic, history)).toEqual([
      { type: 'reasoning', text: 'one', providerOptions: { anthropic: { signature: 's1' } } },
      { type: 'text', text: ' ' },
      { type: 'reasoning', text: 'two', providerOptions: { anthropic: { signature: 's2' } } },
      { type: 'text', text: 'answer' },
    ])
  })

  it('opencode (Anthropic transform: `text !== ""`): Anthropic drops an empty text when no signed thinking is in the message', () => {
    const history = reply(anthropic, () => [{ type: 'text', text: '', metadata: anthropic.textMetadata }, { type: 'text', text: 'answer' }])
    expect(content(anthropic, history)).toEqual([{ type: 'text', text: 'answer' }])
  })

  it.each([openai, google, compatible])(
    'opencode (no transform drops empty text outside Anthropic): $name keeps an empty text with its provider metadata for the same model',
    (provider) => {
      const history = reply(provider, () => [{ type: 'text', text: '', metadata: provider.textMetadata }, { type: 'text', text: 'answer' }])
      expect(content(provider, history)).toEqual([
        { type: 'text', text: '', providerOptions: provider.textMetadata },
        { type: 'text', text: 'answer' },
      ])
    },
  )

  it.each([openai, google, compatible])(
    'difference (opencode sends it bare): $name leaves out an empty text that carries no provider metadata, or goes to another model',
    (provider) => {
      const bare = reply(provider, () => [{ type: 'text', text: '' }, { type: 'text', text: 'answer' }])
      expect(content(provider, bare)).toEqual([{ type: 'text', text: 'answer' }])
      const carried = reply(provider, () => [{ type: 'text', text: '', metadata: provider.textMetadata }, { type: 'text', text: 'answer' }])
      expect(content(provider, carried, OTHER_MODEL)).toEqual([{ type: 'text', text: 'answer' }])
    },
  )

  it('unknown provider (the summariser, the title): the Anthropic rule, the one every provider takes', () => {
    const history = reply(google, () => [{ type: 'text', text: '', metadata: google.textMetadata }, { type: 'text', text: 'answer' }])
    expect(toModelMessages(history, google.model).find((message) => message.role === 'assistant')?.content).toEqual([{ type: 'text', text: 'answer' }])
  })
})

/** The body a real SDK model sends for `messages`. */
async function requestBody(model: LanguageModelV4 | ((fetch: typeof globalThis.fetch) => LanguageModelV4), messages: ModelMessage[]) {
  let body: unknown
  const fetch = (async (_url: unknown, init?: RequestInit) => {
    body = JSON.parse(String(init?.body))
    return new Response('', { status: 500 })
  }) as typeof globalThis.fetch
  const create = model as (fetch: typeof globalThis.fetch) => LanguageModelV4
  for await (const event of streamModelCall({
    model: create(fetch),
    system: 's',
    messages,
    tools: { definitions: [], resolve: (call) => ({ toolName: call.toolName, input: {} }), run: async () => ({}) },
    maxOutputTokens: 100,
    abortSignal: new AbortController().signal,
  })) {
    if (event.type === 'error' || event.type === 'finish-step') break
  }
  return JSON.stringify(body)
}

describe('what reaches the provider', () => {
  const [anthropic, , google] = PROVIDERS as [Provider, Provider, Provider]

  it("Google: a thought signature on an empty text part goes back to Gemini (its SDK drops only unsigned empty text)", async () => {
    const history = reply(google, () => [{ type: 'text', text: '', metadata: google.textMetadata }, { type: 'text', text: 'answer' }])
    const messages = toModelMessages(history, google.model, { provider: google.sdk })
    const body = await requestBody((fetch) => createGoogleGenerativeAI({ apiKey: 'k', fetch }).languageModel('gemini-3-pro'), messages)
    expect(body).toContain('"thoughtSignature":"text-sig"')
  })

  it('Anthropic: the empty text between signed thinking blocks goes as a " " block, so the blocks keep their places', async () => {
    const signed = (text: string, signature: string) => ({ type: 'reasoning', text, metadata: { anthropic: { signature } }, time: { start: 1, end: 2 } })
    const history = reply(anthropic, () => [signed('one', 's1'), { type: 'text', text: '' }, signed('two', 's2'), { type: 'text', text: 'answer' }])
    const messages = [...toModelMessages(history, anthropic.model, { provider: anthropic.sdk }), { role: 'user', content: 'next' } as ModelMessage]
    const body = JSON.parse(await requestBody((fetch) => createAnthropic({ apiKey: 'k', fetch }).languageModel('claude-sonnet-4-5'), messages)) as {
      messages: { role: string; content: { type: string; text?: string }[] }[]
    }
    const assistant = body.messages.find((message) => message.role === 'assistant')!
    expect(assistant.content.map((block) => block.type)).toEqual(['thinking', 'text', 'thinking', 'text'])
    expect(assistant.content[1]!.text).toBe(' ')
  })

  // Gemini's API has no field for a file's name; the other three carry it.
  it.each([
    ['Anthropic (the document title)', (fetch: typeof globalThis.fetch) => createAnthropic({ apiKey: 'k', fetch }).languageModel('claude-sonnet-4-5'), 'anthropic.messages', '"title":"spec.pdf"'],
    ['OpenAI (Responses)', (fetch: typeof globalThis.fetch) => createOpenAI({ apiKey: 'k', fetch }).responses('gpt-5'), 'openai.responses', '"filename":"spec.pdf"'],
    [
      'an OpenAI-compatible server',
      (fetch: typeof globalThis.fetch) => createOpenAICompatible({ name: 'openai-compatible', baseURL: 'https://x.test/v1', fetch }).chatModel('m'),
      'openai-compatible.chat',
      '"filename":"spec.pdf"',
    ],
  ])('%s: a PDF goes with its file name', async (_name, create, sdk, expected) => {
    const user = build.user(sessionID)
    const history: MessageWithParts[] = [
      {
        info: user,
        parts: [
          build.text(user, 'read'),
          { id: build.ids.ascending('part'), sessionID, messageID: user.id, type: 'file', mime: 'application/pdf', filename: 'spec.pdf', url: 'data:application/pdf;base64,JVBERi0xLjc=' } as Part,
        ],
      },
    ]
    const body = await requestBody(create, toModelMessages(history, { providerID: 'p', modelID: 'm' }, { provider: sdk }))
    expect(body).toContain(expected)
  })
})
