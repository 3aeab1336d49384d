import { z } from 'zod'
import { APIError } from './error'
import { idSchema, timestamp, TokensSchema } from './common'

const PartBase = z.object({
  id: idSchema('part'),
  sessionID: idSchema('session'),
  messageID: idSchema('message'),
})

const Metadata = z.record(z.string(), z.unknown())

export const TextPartSchema = PartBase.extend({
  type: z.literal('text'),
  text: z.string(),
  /** Written by the system (attached file contents, continuation prompts), not typed by the user. */
  synthetic: z.boolean().optional(),
  /** Kept for the user to read but never sent to the model. */
  ignored: z.boolean().optional(),
  time: z.object({ start: timestamp, end: timestamp.optional() }).optional(),
  metadata: Metadata.optional(),
})

export const ReasoningPartSchema = PartBase.extend({
  type: z.literal('reasoning'),
  text: z.string(),
  metadata: Metadata.optional(),
  time: z.object({ start: timestamp, end: timestamp.optional() }),
})

const SourceText = z.object({ value: z.string(), start: z.number().int(), end: z.number().int() })

export const FileSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('file'), path: z.string(), text: SourceText }),
  z.object({
    type: z.literal('symbol'),
    path: z.string(),
    range: z.object({
      start: z.object({ line: z.number().int(), character: z.number().int() }),
      end: z.object({ line: z.number().int(), character: z.number().int() }),
    }),
    name: z.string(),
    kind: z.number().int(),
    text: SourceText,
  }),
  z.object({ type: z.literal('resource'), clientName: z.string(), uri: z.string(), text: SourceText }),
])

export const FilePartSchema = PartBase.extend({
  type: z.literal('file'),
  mime: z.string().min(1),
  filename: z.string().optional(),
  url: z.string(),
  source: FileSourceSchema.optional(),
})

export const AgentPartSchema = PartBase.extend({
  type: z.literal('agent'),
  name: z.string().min(1),
  source: SourceText.optional(),
})

export const SubtaskPartSchema = PartBase.extend({
  type: z.literal('subtask'),
  prompt: z.string(),
  description: z.string(),
  agent: z.string().min(1),
  model: z.object({ providerID: z.string(), modelID: z.string() }).optional(),
  command: z.string().optional(),
})

export const ToolStatePendingSchema = z.object({
  status: z.literal('pending'),
  input: z.record(z.string(), z.unknown()),
  raw: z.string(),
})
export const ToolStateRunningSchema = z.object({
  status: z.literal('running'),
  input: z.record(z.string(), z.unknown()),
  title: z.string().optional(),
  metadata: Metadata.optional(),
  time: z.object({ start: timestamp }),
})
export const ToolStateCompletedSchema = z.object({
  status: z.literal('completed'),
  input: z.record(z.string(), z.unknown()),
  output: z.string(),
  title: z.string(),
  metadata: Metadata,
  /** `compacted` is set by pruning: the output stays stored and visible, but the model sees it cleared. */
  time: z.object({ start: timestamp, end: timestamp, compacted: timestamp.optional() }),
  attachments: z.array(z.lazy(() => FilePartSchema)).optional(),
})
export const ToolStateErrorSchema = z.object({
  status: z.literal('error'),
  input: z.record(z.string(), z.unknown()),
  error: z.string(),
  /** `interrupted` marks a call abandoned by cancel or by a runner that died; `output` keeps partial output. */
  metadata: z
    .object({ interrupted: z.boolean().optional(), output: z.string().optional() })
    .catchall(z.unknown())
    .optional(),
  time: z.object({ start: timestamp, end: timestamp }),
})
export const ToolStateSchema = z.discriminatedUnion('status', [
  ToolStatePendingSchema,
  ToolStateRunningSchema,
  ToolStateCompletedSchema,
  ToolStateErrorSchema,
])
export type ToolState = z.infer<typeof ToolStateSchema>

export const ToolPartSchema = PartBase.extend({
  type: z.literal('tool'),
  callID: z.string().min(1),
  tool: z.string().min(1),
  state: ToolStateSchema,
  metadata: Metadata.optional(),
})

export const StepStartPartSchema = PartBase.extend({
  type: z.literal('step-start'),
  snapshot: z.string().optional(),
})

export const StepFinishPartSchema = PartBase.extend({
  type: z.literal('step-finish'),
  reason: z.string(),
  snapshot: z.string().optional(),
  cost: z.number().nonnegative(),
  tokens: TokensSchema,
})

export const SnapshotPartSchema = PartBase.extend({
  type: z.literal('snapshot'),
  snapshot: z.string(),
})

export const PatchPartSchema = PartBase.extend({
  type: z.literal('patch'),
  /** The snapshot taken before the step; the files are those whose content changed during it. */
  hash: z.string(),
  files: z.array(z.string()),
})

export const RetryPartSchema = PartBase.extend({
  type: z.literal('retry'),
  attempt: z.number().int().positive(),
  error: APIError.Schema,
  time: z.object({ created: timestamp }),
})

export const CompactionPartSchema = PartBase.extend({
  type: z.literal('compaction'),
  auto: z.boolean(),
  overflow: z.boolean().optional(),
  tail_start_id: idSchema('message').optional(),
  /** Set when the user undid this compaction: the model sees the full history again; the summary stays readable. */
  undone: timestamp.optional(),
})

export const PartSchema = z.discriminatedUnion('type', [
  TextPartSchema,
  ReasoningPartSchema,
  FilePartSchema,
  AgentPartSchema,
  SubtaskPartSchema,
  ToolPartSchema,
  StepStartPartSchema,
  StepFinishPartSchema,
  SnapshotPartSchema,
  PatchPartSchema,
  RetryPartSchema,
  CompactionPartSchema,
])
export type Part = z.infer<typeof PartSchema>
export type PartType = Part['type']
export type PartOf<T extends PartType> = Extract<Part, { type: T }>
export type TextPart = PartOf<'text'>
export type ReasoningPart = PartOf<'reasoning'>
export type ToolPart = PartOf<'tool'>
export type FilePart = PartOf<'file'>

export const PART_TYPES = PartSchema.options.map((option) => option.shape.type.value)
