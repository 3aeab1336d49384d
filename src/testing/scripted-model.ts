import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { APICallError } from '@ai-sdk/provider'
import { MockLanguageModelV4, simulateReadableStream } from 'ai/test'

/** One scripted reply of a mock model: stream chunks, an error thrown by the call, or a stream that never ends. */
export type ScriptedReply =
  | { chunks: LanguageModelV4StreamPart[] }
  | { throws: unknown }
  | { hangAfter: LanguageModelV4StreamPart[] }

const usage = (input = 10, output = 5, reasoning = 0, cacheRead = 0) => ({
  inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 },
  outputTokens: { total: output, text: output - reasoning, reasoning },
})

export const finish = (reason: 'stop' | 'tool-calls' | 'length', tokens?: Parameters<typeof usage>): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified: reason, raw: reason },
  usage: usage(...(tokens ?? [])),
})

export function textReply(text: string, tokens?: Parameters<typeof usage>): ScriptedReply {
  return {
    chunks: [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't1' },
      ...text.split(/(?<= )/).map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
      { type: 'text-end', id: 't1' },
      finish('stop', tokens),
    ],
  }
}

export function toolReply(calls: { id: string; name: string; input: unknown }[]): ScriptedReply {
  return {
    chunks: [
      { type: 'stream-start', warnings: [] },
      ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) })),
      finish('tool-calls'),
    ],
  }
}

export function apiError(statusCode: number, message: string, headers?: Record<string, string>): ScriptedReply {
  return {
    throws: new APICallError({
      message,
      url: 'http://model.test/v1/chat/completions',
      requestBodyValues: {},
      statusCode,
      ...(headers ? { responseHeaders: headers } : {}),
      responseBody: JSON.stringify({ error: { message } }),
      isRetryable: statusCode === 429 || statusCode >= 500,
    }),
  }
}

/** A mock model that answers each call with the next scripted reply and records what it was sent. */
export function scriptedModel(replies: ScriptedReply[], modelId = 'mock-model') {
  const queue = [...replies]
  const model = new MockLanguageModelV4({
    modelId,
    provider: 'mock',
    doStream: async (options) => {
      const reply = queue.shift() ?? textReply('(no scripted reply)')
      if ('throws' in reply) throw reply.throws
      if ('hangAfter' in reply) {
        const stream = new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const chunk of reply.hangAfter) controller.enqueue(chunk)
            options.abortSignal?.addEventListener('abort', () => controller.error(Object.assign(new Error('aborted'), { name: 'AbortError' })))
          },
        })
        return { stream }
      }
      return { stream: simulateReadableStream({ chunks: reply.chunks, chunkDelayInMs: 0 }) }
    },
  })
  return { model, remaining: () => queue.length }
}
