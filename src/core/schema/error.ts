import { z } from 'zod'
import { defineError } from '../errors'

/**
 * An error that is stored, not only thrown: its name and data schema, defined once. It is a defined error (class,
 * `errorName`, `isInstance`) whose message is its data's `message`, and `Schema` is its stored `{name, data}` shape.
 */
export function storedError<const Name extends string, Data extends z.ZodType<Record<string, unknown>>>(name: Name, data: Data) {
  const defined = defineError(name, (value: z.infer<Data>) => ({ message: typeof value.message === 'string' ? value.message : name, data: value }))
  return Object.assign(defined, { Schema: z.object({ name: z.literal(name), data }) })
}

/*
 * The named errors an assistant message can end with. They are plain `{name, data}` values so they survive
 * IndexedDB and postMessage unchanged; the UI switches on `name`. Names and fields are opencode's (its exports load
 * here as they are).
 */
export const ProviderAuthError = storedError('ProviderAuthError', z.object({ providerID: z.string(), message: z.string() }))
export const UnknownError = storedError('UnknownError', z.object({ message: z.string(), ref: z.string().optional() }))
export const MessageOutputLengthError = storedError('MessageOutputLengthError', z.object({}).passthrough())
export const MessageAbortedError = storedError('MessageAbortedError', z.object({ message: z.string() }))
export const StructuredOutputError = storedError('StructuredOutputError', z.object({ message: z.string(), retries: z.number().int().nonnegative() }))
export const ContextOverflowError = storedError('ContextOverflowError', z.object({ message: z.string(), responseBody: z.string().optional() }))
export const ContentFilterError = storedError('ContentFilterError', z.object({ message: z.string() }))
export const APIError = storedError(
  'APIError',
  z.object({
    message: z.string(),
    statusCode: z.number().int().optional(),
    isRetryable: z.boolean(),
    responseHeaders: z.record(z.string(), z.string()).optional(),
    responseBody: z.string().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
  }),
)
export type APIError = z.infer<typeof APIError.Schema>

export const MessageErrorSchema = z.discriminatedUnion('name', [
  ProviderAuthError.Schema,
  UnknownError.Schema,
  MessageOutputLengthError.Schema,
  MessageAbortedError.Schema,
  StructuredOutputError.Schema,
  ContextOverflowError.Schema,
  ContentFilterError.Schema,
  APIError.Schema,
])
export type MessageError = z.infer<typeof MessageErrorSchema>
export type MessageErrorName = MessageError['name']
