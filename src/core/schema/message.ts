import { z } from 'zod'
import { FileDiffSchema, idSchema, ModelReferenceSchema, timestamp, TokensSchema } from './common'
import { MessageErrorSchema } from './error'

const MessageBase = z.object({
  id: idSchema('message'),
  sessionID: idSchema('session'),
})

export const OutputFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({
    type: z.literal('json_schema'),
    schema: z.record(z.string(), z.unknown()),
    retryCount: z.number().int().nonnegative().default(2),
  }),
])

export const UserMessageSchema = MessageBase.extend({
  role: z.literal('user'),
  time: z.object({ created: timestamp }),
  agent: z.string().min(1),
  model: ModelReferenceSchema,
  format: OutputFormatSchema.optional(),
  summary: z
    .object({ title: z.string().optional(), body: z.string().optional(), diffs: z.array(FileDiffSchema) })
    .optional(),
  system: z.string().optional(),
  tools: z.record(z.string(), z.boolean()).optional(),
})
export type UserMessage = z.infer<typeof UserMessageSchema>

export const FinishReasonSchema = z.enum(['stop', 'length', 'tool-calls', 'content-filter', 'error', 'other', 'unknown', 'interrupted'])
export type FinishReason = z.infer<typeof FinishReasonSchema>

export const AssistantMessageSchema = MessageBase.extend({
  role: z.literal('assistant'),
  time: z.object({ created: timestamp, completed: timestamp.optional() }),
  error: MessageErrorSchema.optional(),
  parentID: idSchema('message'),
  modelID: z.string().min(1),
  providerID: z.string().min(1),
  agent: z.string().min(1),
  /** Legacy twin of `agent`, kept because opencode exports carry it. */
  mode: z.string().optional(),
  path: z.object({ cwd: z.string(), root: z.string() }),
  cost: z.number().nonnegative(),
  tokens: TokensSchema,
  summary: z.boolean().optional(),
  structured: z.unknown().optional(),
  variant: z.string().optional(),
  finish: FinishReasonSchema.optional(),
})
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>

export const MessageSchema = z.discriminatedUnion('role', [UserMessageSchema, AssistantMessageSchema])
export type Message = z.infer<typeof MessageSchema>
