import { z } from 'zod'
import { idSchema, ModelReferenceSchema, timestamp } from './common'
import { AgentPartSchema, FileSourceSchema } from './part'

// The setting rows and agent overrides live with the rest of the settings, in core/settings.ts.
export {
  AgentOverrideSchema,
  AgentOverridesSchema,
  SettingSchema,
  type AgentOverride,
  type AgentOverrides,
  type Setting,
  type SettingKey,
  type SettingValue,
} from '../settings'

export const TodoSchema = z.object({
  id: z.string().min(1),
  content: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']),
  priority: z.enum(['high', 'medium', 'low']),
})
export type Todo = z.infer<typeof TodoSchema>

export const TodoListSchema = z.object({
  sessionID: idSchema('session'),
  items: z.array(TodoSchema),
  time: z.object({ updated: timestamp }),
})
export type TodoList = z.infer<typeof TodoListSchema>

/** A tool's whole output when the part only keeps a truncated copy; the model can page through it later. */
export const ToolOutputSchema = z.object({
  id: idSchema('tool'),
  sessionID: idSchema('session'),
  messageID: idSchema('message'),
  partID: idSchema('part'),
  text: z.string(),
  time: z.object({ created: timestamp }),
})
export type ToolOutput = z.infer<typeof ToolOutputSchema>

export const PromptPartInputSchema = z.discriminatedUnion('type', [
  // `synthetic`: added by the worker when it expanded a mention (the file's contents), not typed.
  z.object({ type: z.literal('text'), text: z.string(), synthetic: z.boolean().optional() }),
  z.object({
    type: z.literal('file'),
    mime: z.string().min(1),
    filename: z.string().optional(),
    url: z.string(),
    source: FileSourceSchema.optional(),
  }),
  z.object({ type: z.literal('agent'), name: z.string().min(1), source: AgentPartSchema.shape.source }),
])
export type PromptPartInput = z.infer<typeof PromptPartInputSchema>

/** A prompt sent with the `queue` delivery mode: kept here until the running turn ends, first in, first out. */
export const InboxEntrySchema = z.object({
  id: idSchema('input'),
  sessionID: idSchema('session'),
  agent: z.string().min(1).optional(),
  model: ModelReferenceSchema.optional(),
  parts: z.array(PromptPartInputSchema).min(1),
  time: z.object({ created: timestamp }),
})
export type InboxEntry = z.infer<typeof InboxEntrySchema>
