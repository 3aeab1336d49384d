import type { LanguageModelV4 } from '@ai-sdk/provider'
import type { ProviderConfig } from '../../core/provider/schema'
import { createLanguageModel } from '../../provider/language-model'
import { streamModelCall, type StepEvent } from '../model-call'
import { retryDelay, retryReason, toMessageError } from '../retry'

// What a provider sends when something goes wrong, fed through that provider's own SDK (the parsers the app runs), and
// what the loop makes of it. Shared by the tables that check classification per provider.

/** The fixed clock retry delays are measured against. */
export const NOW = Date.UTC(2026, 11, 1, 12, 0, 0)

export type Frame = object | { event: string; data: object }

/**
 * What arrives: an HTTP error answer; a 200 event stream (whose frames may carry an error), which may break after its
 * frames with a transport error; or a fetch that fails before any answer.
 */
export type Arrival =
  | { status: number; headers?: Record<string, string>; body?: object | string }
  | { sse: Frame[]; breaks?: Error }
  | { fails: Error }

/** The provider types the app ships, with OpenAI's Responses API beside its Chat Completions. */
export type ProviderKind = ProviderConfig['type'] | 'responses'

function sseText(frames: Frame[]): string {
  return frames
    .map((frame) => ('event' in frame && 'data' in frame ? `event: ${String(frame.event)}\ndata: ${JSON.stringify(frame.data)}\n\n` : `data: ${JSON.stringify(frame)}\n\n`))
    .join('')
}

function response(arrival: Exclude<Arrival, { fails: Error }>): Response {
  if ('sse' in arrival) {
    const bytes = new TextEncoder().encode(sseText(arrival.sse))
    const broken = arrival.breaks
    let sent = false
    // The frames arrive, then the connection breaks on the next read.
    const body = broken
      ? new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) return controller.error(broken)
            sent = true
            controller.enqueue(bytes)
          },
        })
      : bytes
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })
  }
  const body = arrival.body === undefined ? null : typeof arrival.body === 'string' ? arrival.body : JSON.stringify(arrival.body)
  const type = typeof arrival.body === 'object' ? 'application/json' : 'text/plain'
  return new Response(body, { status: arrival.status, headers: { 'content-type': type, ...arrival.headers } })
}

async function model(kind: ProviderKind, arrival: Arrival): Promise<LanguageModelV4> {
  const fetch = (async () => {
    if ('fails' in arrival) throw arrival.fails
    return response(arrival)
  }) as typeof globalThis.fetch
  if (kind === 'openai') {
    // The app sends OpenAI's own models over the Responses API; Chat Completions from OpenAI itself is still the wire
    // many gateways copy, so its table is kept on OpenAI's Chat Completions model.
    const { createOpenAI } = await import('@ai-sdk/openai')
    return createOpenAI({ apiKey: 'sk-test', fetch }).chat('gpt-4o') as LanguageModelV4
  }
  const type: ProviderConfig['type'] = kind === 'responses' ? 'openai' : kind
  const config: ProviderConfig = {
    id: 'prv_1',
    type,
    name: 'Test',
    apiKey: 'sk-test',
    ...(type === 'openai-compatible' ? { baseURL: 'https://gateway.example/v1' } : {}),
    models: [],
    time: { created: 0, updated: 0 },
  }
  const id = type === 'anthropic' ? 'claude-sonnet-4-5' : type === 'google' ? 'gemini-2.5-flash' : type === 'openai' ? 'gpt-5' : 'gpt-4o'
  return (await createLanguageModel(config, id, { fetch })) as LanguageModelV4
}

/** Streams one call and classifies the error it ends with, as the step processor and the loop do. */
export async function verdictOf(kind: ProviderKind, arrival: Arrival) {
  const events: StepEvent[] = []
  for await (const event of streamModelCall({
    model: await model(kind, arrival),
    system: 'system',
    messages: [{ role: 'user', content: 'hi' }],
    tools: { definitions: [], resolve: (call) => ({ toolName: call.toolName, input: {} }), run: async () => ({}) },
    maxOutputTokens: 100,
    abortSignal: new AbortController().signal,
  })) {
    events.push(event)
  }
  const failure = events.find((event) => event.type === 'error')
  if (!failure || failure.type !== 'error') throw new Error(`no error event in ${JSON.stringify(events.map((event) => event.type))}`)
  const named = toMessageError(failure.error, { providerID: 'prv_1' })
  const reason = retryReason(named)
  return { named, reason, delay: reason ? retryDelay(1, named, NOW) : undefined, text: events.some((event) => event.type === 'text-delta') }
}
