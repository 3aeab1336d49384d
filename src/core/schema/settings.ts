import { z } from 'zod'
import { idSchema, ModelReferenceSchema, PermissionRulesetSchema, timestamp } from './common'

/** The user's changes to one built-in agent; an absent field keeps the built-in value. */
export const AgentOverrideSchema = z.object({
  model: ModelReferenceSchema.optional(),
  /** Replaces the agent's built-in prompt. */
  prompt: z.string().max(100_000).optional(),
  /** Most model calls per turn. */
  steps: z.number().int().min(1).max(10_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** Go after the agent's built-in rules, so they win. */
  permission: PermissionRulesetSchema.optional(),
  /** Removes the agent from pickers and the task tool (not possible for build or the hidden agents). */
  disabled: z.boolean().optional(),
})
export type AgentOverride = z.infer<typeof AgentOverrideSchema>

/** Agent name → override. */
export const AgentOverridesSchema = z.record(z.string().min(1), AgentOverrideSchema)
export type AgentOverrides = z.infer<typeof AgentOverridesSchema>

/** App-wide settings, one row per key, so each can change without rewriting the others. */
export const SettingSchema = z.discriminatedUnion('key', [
  z.object({ key: z.literal('model.default'), value: ModelReferenceSchema }),
  z.object({ key: z.literal('model.small'), value: ModelReferenceSchema }),
  /** How many times a retryable provider error is retried before the turn ends with it. */
  z.object({ key: z.literal('retry.limit'), value: z.number().int().min(0).max(100) }),
  /** Per-agent overrides (model, prompt, steps, temperature, extra permission rules, disabled). */
  z.object({ key: z.literal('agents'), value: AgentOverridesSchema }),
  /**
   * Where tools run: WebContainer, booted when a command needs Node.js or npm (`auto`), or always the offline workspace (`local`), for those who
   * would rather not load StackBlitz's runtime or do not need Node.js.
   */
  z.object({ key: z.literal('workspace.backend'), value: z.enum(['auto', 'local']) }),
  /** Compact automatically when a session nears its model's context limit. */
  z.object({ key: z.literal('compaction.auto'), value: z.boolean() }),
  /** Clear old tool outputs from what the model sees (they stay stored and visible). */
  z.object({ key: z.literal('compaction.prune'), value: z.boolean() }),
  /** The project the app opens with: the one the user last switched to. */
  z.object({ key: z.literal('project.current'), value: idSchema('project') }),
])
export type Setting = z.infer<typeof SettingSchema>
export type SettingKey = Setting['key']
export type SettingValue<K extends SettingKey> = Extract<Setting, { key: K }>['value']

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
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('file'), mime: z.string().min(1), filename: z.string().optional(), url: z.string() }),
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
