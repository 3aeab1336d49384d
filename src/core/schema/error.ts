import { z } from 'zod'

/**
 * The named errors an assistant message can end with. They are plain `{name, data}` values so they survive
 * IndexedDB and postMessage unchanged; the UI switches on `name`.
 */
export const ProviderAuthErrorSchema = z.object({
  name: z.literal('ProviderAuthError'),
  data: z.object({ providerID: z.string(), message: z.string() }),
})
export const UnknownErrorSchema = z.object({
  name: z.literal('UnknownError'),
  data: z.object({ message: z.string(), ref: z.string().optional() }),
})
export const MessageOutputLengthErrorSchema = z.object({
  name: z.literal('MessageOutputLengthError'),
  data: z.object({}).passthrough(),
})
export const MessageAbortedErrorSchema = z.object({
  name: z.literal('MessageAbortedError'),
  data: z.object({ message: z.string() }),
})
export const StructuredOutputErrorSchema = z.object({
  name: z.literal('StructuredOutputError'),
  data: z.object({ message: z.string(), retries: z.number().int().nonnegative() }),
})
export const ContextOverflowErrorSchema = z.object({
  name: z.literal('ContextOverflowError'),
  data: z.object({ message: z.string(), responseBody: z.string().optional() }),
})
export const ContentFilterErrorSchema = z.object({
  name: z.literal('ContentFilterError'),
  data: z.object({ message: z.string() }),
})
export const APIErrorSchema = z.object({
  name: z.literal('APIError'),
  data: z.object({
    message: z.string(),
    statusCode: z.number().int().optional(),
    isRetryable: z.boolean(),
    responseHeaders: z.record(z.string(), z.string()).optional(),
    responseBody: z.string().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
  }),
})
export type APIError = z.infer<typeof APIErrorSchema>

export const MessageErrorSchema = z.discriminatedUnion('name', [
  ProviderAuthErrorSchema,
  UnknownErrorSchema,
  MessageOutputLengthErrorSchema,
  MessageAbortedErrorSchema,
  StructuredOutputErrorSchema,
  ContextOverflowErrorSchema,
  ContentFilterErrorSchema,
  APIErrorSchema,
])
export type MessageError = z.infer<typeof MessageErrorSchema>
export type MessageErrorName = MessageError['name']
