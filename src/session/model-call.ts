import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { StreamProviderError, type LanguageModelUsage, type ModelMessage } from 'ai'
import { asLanguageModelUsage, convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal'
import { readProviderError, statusOfProviderError } from '../core/provider/errors'
import { createPacer } from '../core/macrotask'
import { mergeCallOptions, openaiReasoningOptions } from './openai-reasoning'
import { withPromptCaching } from './prompt-cache'
import type { FinishReason } from '../core/schema'
import type { StepTools } from '../tools/tool'

/** What the step processor reads: one model call's stream with its tool calls parsed, run and answered. */
export type StepEvent =
  | { type: 'start-step' }
  | { type: 'text-start' | 'text-end' | 'reasoning-start' | 'reasoning-end'; id: string; providerMetadata?: Record<string, unknown> }
  | { type: 'text-delta' | 'reasoning-delta'; id: string; text: string; providerMetadata?: Record<string, unknown> }
  | { type: 'tool-input-start'; id: string; toolName: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown; providerExecuted?: boolean; providerMetadata?: Record<string, unknown> }
  | { type: 'tool-result'; toolCallId: string; toolName: string; output: unknown }
  | { type: 'tool-error'; toolCallId: string; toolName: string; error: unknown }
  | { type: 'finish-step'; finishReason: FinishReason; usage: LanguageModelUsage; providerMetadata?: Record<string, unknown> }
  | { type: 'error'; error: unknown }
  | { type: 'abort' }

export interface ModelCall {
  model: LanguageModelV4
  system: string
  messages: ModelMessage[]
  tools: StepTools
  maxOutputTokens: number
  temperature?: number
  topP?: number
  abortSignal: AbortSignal
  /** A key stable for the session (its id): OpenAI routes requests with the same key to the same prompt cache. */
  cacheKey?: string
}

/**
 * One model call, straight on the provider's `doStream`. The SDK's `streamText` would pass every delta through
 * half a dozen more stream stages and a tee (measured at ~5× the provider's own per-delta cost), and the loop needs
 * none of what they add: steps, retries and tool execution are ours. What it did that we need is done here: the
 * prompt is converted with the SDK's own functions, tool calls are repaired and run as soon as they are parsed
 * (in parallel, their results interleaved with the stream), and the step ends only when every tool has answered.
 */
export async function* streamModelCall(call: ModelCall): AsyncGenerator<StepEvent> {
  const queue = new EventQueue<StepEvent>()
  let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined
  const produce = async () => {
    const target = { provider: call.model.provider, modelID: call.model.modelId }
    const cached = withPromptCaching(target, call.system, call.messages, call.cacheKey)
    const providerOptions = mergeCallOptions(cached.providerOptions, openaiReasoningOptions(target))
    const standardized = await standardizePrompt({ system: cached.system, messages: cached.messages })
    const prompt = await convertToLanguageModelPrompt({
      prompt: standardized,
      supportedUrls: await call.model.supportedUrls,
      download: undefined,
      abortSignal: call.abortSignal,
      provider: call.model.provider.split('.')[0],
    })
    const { stream } = await call.model.doStream({
      prompt,
      // No tools (the summariser) means no tool choice either: some providers reject a choice among nothing.
      ...(call.tools.definitions.length > 0 ? { tools: call.tools.definitions, toolChoice: { type: 'auto' as const } } : {}),
      maxOutputTokens: call.maxOutputTokens,
      ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
      ...(call.topP !== undefined ? { topP: call.topP } : {}),
      abortSignal: call.abortSignal,
      includeRawChunks: false,
      ...(providerOptions ? { providerOptions } : {}),
    })
    reader = stream.getReader()
    const running: Promise<unknown>[] = []
    let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined
    let output = false
    let failed = false
    queue.push({ type: 'start-step' })
    // Buffered network data is read in one unbroken run of microtasks; without a turn of the event loop now and
    // then, a burst of thousands of deltas would hold off every flush, UI batch and cancel until it is all parsed.
    const pace = createPacer()
    for (;;) {
      await pace()
      // Read ahead of the processor only so far: while it waits on storage, the stream waits too.
      if (queue.backlog > MAX_BACKLOG) await queue.drained()
      const { done, value: chunk } = await reader.read()
      if (done) break
      switch (chunk.type) {
        case 'text-delta':
        case 'reasoning-delta':
          output = true
          if (chunk.delta.length > 0 || chunk.providerMetadata) {
            queue.push({ type: chunk.type, id: chunk.id, text: chunk.delta, ...metadata(chunk.providerMetadata) })
          }
          break
        case 'text-start':
        case 'text-end':
        case 'reasoning-start':
        case 'reasoning-end':
          output = true
          queue.push({ type: chunk.type, id: chunk.id, ...metadata(chunk.providerMetadata) })
          break
        case 'tool-input-start':
          output = true
          if (!chunk.providerExecuted) queue.push({ type: 'tool-input-start', id: chunk.id, toolName: chunk.toolName })
          break
        case 'tool-call': {
          output = true
          if (chunk.providerExecuted) {
            queue.push({ type: 'tool-call', toolCallId: chunk.toolCallId, toolName: chunk.toolName, input: parseJson(chunk.input), providerExecuted: true, ...metadata(chunk.providerMetadata) })
            break
          }
          const resolved = call.tools.resolve({ toolName: chunk.toolName, input: chunk.input })
          const toolCall = { toolCallId: chunk.toolCallId, ...resolved }
          queue.push({ type: 'tool-call', ...toolCall, ...metadata(chunk.providerMetadata) })
          running.push(
            // After a cancel the processor's cleanup takes the result from the run itself (StepProcessor.tracking).
            call.tools.run(toolCall).then(
              (result) => call.abortSignal.aborted || queue.push({ type: 'tool-result', ...toolCall, output: result }),
              (error: unknown) => call.abortSignal.aborted || queue.push({ type: 'tool-error', ...toolCall, error }),
            ),
          )
          break
        }
        case 'tool-result':
          output = true
          queue.push({ type: 'tool-result', toolCallId: chunk.toolCallId, toolName: chunk.toolName, output: chunk.result })
          break
        case 'finish':
          finish = chunk
          break
        case 'error':
          failed = true
          queue.push({ type: 'error', error: streamError(chunk.error) })
          break
        default:
          break
      }
    }
    // A tool that ignores its abort signal must not hold a cancelled step open.
    await Promise.race([Promise.all(running), rejectOnAbort(call.abortSignal)])
    if (failed) return
    if (!finish && !output) {
      queue.push({ type: 'error', error: new Error('No output generated: the model stream ended without a finish.') })
      return
    }
    queue.push({
      type: 'finish-step',
      finishReason: finish ? finish.finishReason.unified : 'other',
      usage: finish ? asLanguageModelUsage(finish.usage) : asLanguageModelUsage(emptyUsage),
      ...metadata(finish?.providerMetadata),
    })
  }
  produce().then(
    () => queue.close(),
    (error: unknown) => {
      queue.push(call.abortSignal.aborted ? { type: 'abort' } : { type: 'error', error })
      queue.close()
    },
  )
  try {
    yield* queue
  } finally {
    // The consumer stopped early (an error, a cancel): the response body must not keep streaming into nothing.
    reader?.cancel().catch(() => {})
  }
}

const MAX_BACKLOG = 256

const emptyUsage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
}

function metadata(providerMetadata: Record<string, unknown> | undefined) {
  return providerMetadata ? { providerMetadata } : {}
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(signal.reason ?? new DOMException('Aborted', 'AbortError'))
    if (signal.aborted) fail()
    else signal.addEventListener('abort', fail, { once: true })
  })
}

function parseJson(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text)
  } catch {
    return text
  }
}

const PROVIDER_STREAM_ERROR = Symbol.for('vercel.ai.providerStreamError')

/**
 * An error the provider sent inside the stream comes as whatever the provider's JSON held. It is given the SDK's
 * error shape (message, status, retryable) so retry and the error banner can read it like an HTTP error; a frame
 * without a status gets the one its code or type stands for (`server_error` 500, `rate_limit_exceeded` 429), so a
 * transient error mid-stream is retried like the same HTTP answer.
 */
export function streamError(error: unknown): unknown {
  if (error instanceof Error || typeof error !== 'object' || error === null) return error
  const outer = error as Record<string, unknown>
  const inner = (typeof outer.error === 'object' && outer.error !== null ? outer.error : outer) as Record<string, unknown>
  const detail = readProviderError(error)
  if (!detail) return error
  const given = [inner.status, inner.statusCode, inner.code, outer.status, outer.statusCode, outer.code].find(
    (value): value is number => typeof value === 'number' && value >= 400 && value < 600,
  )
  const status = given ?? statusOfProviderError(detail)
  const retryable = typeof inner.isRetryable === 'boolean' ? inner.isRetryable : typeof outer.isRetryable === 'boolean' ? outer.isRetryable : undefined
  const type = typeof inner.type === 'string' ? inner.type : detail.type
  return new StreamProviderError({
    message: detail.message ?? detail.code ?? detail.type ?? 'The provider reported an error in the stream',
    ...(type !== undefined ? { type } : {}),
    ...(typeof inner.code === 'string' || typeof inner.code === 'number' ? { code: inner.code } : {}),
    ...(status !== undefined ? { statusCode: status } : {}),
    ...(retryable !== undefined ? { isRetryable: retryable } : {}),
    // Providers that classify their own stream errors keep the event they read under `data`.
    data: (outer as { [PROVIDER_STREAM_ERROR]?: unknown })[PROVIDER_STREAM_ERROR] === true && outer.data !== undefined ? outer.data : error,
  })
}

/**
 * A single-consumer queue: the producer never waits (the provider's stream already paces it) and the consumer
 * takes events in order, waiting only when it has caught up.
 */
class EventQueue<Event> {
  private readonly items: Event[] = []
  private head = 0
  private closed = false
  private wake: (() => void) | undefined
  private onDrained: (() => void) | undefined
  private stopped = false

  /** Events pushed and not yet taken. */
  get backlog(): number {
    return this.items.length - this.head
  }

  /** Resolves once the consumer has taken every event pushed so far (or stopped taking). */
  drained(): Promise<void> {
    if (this.backlog === 0 || this.stopped) return Promise.resolve()
    return new Promise((resolve) => (this.onDrained = resolve))
  }

  push(event: Event): void {
    this.items.push(event)
    this.notify()
  }

  close(): void {
    this.closed = true
    this.notify()
  }

  private notify() {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Event> {
    try {
      yield* this.take()
    } finally {
      this.stopped = true
      this.release()
    }
  }

  private release() {
    const drained = this.onDrained
    this.onDrained = undefined
    drained?.()
  }

  private async *take(): AsyncGenerator<Event> {
    for (;;) {
      if (this.head < this.items.length) {
        const event = this.items[this.head]!
        this.items[this.head++] = undefined as Event
        // Drop what was consumed now and then, so a long reply does not keep every delta alive.
        if (this.head > 1024 && this.head * 2 > this.items.length) {
          this.items.splice(0, this.head)
          this.head = 0
        }
        yield event
        continue
      }
      this.release()
      if (this.closed) return
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
  }
}
