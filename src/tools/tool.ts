import { z } from 'zod'
import { defineError, describeIssues } from '../core/errors'
import type { FileTimes, PermissionRequest, SubtaskRequest, SubtaskResult, Todos, ToolOutputs } from '../core/ports'
import type { PermissionReply } from '../core/schema'
import type { Workspace } from '../workspace/workspace'

/** What a tool gets besides its input: where it runs, how to stop, and how to report progress. */
export interface ToolContext {
  sessionID: string
  messageID: string
  callID: string
  abort: AbortSignal
  /** Streams a title or metadata (e.g. partial command output) into the running tool part. */
  progress(update: { title?: string; metadata?: Record<string, unknown> }): void
  /** The project's files and shell. */
  workspace: Workspace
  /** The agent running this turn. */
  agent: string
  /**
   * Asks for permission under the session's rules: resolves when allowed (by a rule or by the user), rejects with
   * a `PermissionDeniedError`, `PermissionRejectedError` or `PermissionCorrectedError` (a rejection with feedback).
   * When the user was asked it resolves with the reply: the `question` tool reads its answers from it.
   */
  ask(request: PermissionRequest): Promise<PermissionReply | void>
  files: FileTimes
  /** Runs a subagent in a child session and resolves with its final text. */
  subtask(request: SubtaskRequest): Promise<SubtaskResult>
  /** The subagents this turn may start (the project's and the user's included); absent, the built-in ones. */
  subagents?: readonly { name: string; description: string }[]
  /** Where a truncated output's whole text is kept, and read back from. */
  outputs: ToolOutputs
  /** The session's task list. */
  todos: Todos
}

/** The tools of one step as the model call sees them: what to offer, how to read a call, how to run it. */
export interface StepTools {
  definitions: { type: 'function'; name: string; description: string; inputSchema: Record<string, unknown> }[]
  /** A call the model made, with its name repaired and its JSON input parsed (a broken call becomes `invalid`). */
  resolve(call: { toolName: string; input: string }): { toolName: string; input: unknown }
  run(call: { toolCallId: string; toolName: string; input: unknown }): Promise<unknown>
}

export interface ToolResult {
  title: string
  output: string
  metadata?: Record<string, unknown>
  /** Media for the model (an image or PDF `read` returned), as data URLs; stored on the completed tool part. */
  attachments?: ToolAttachment[]
}

export interface ToolAttachment {
  mime: string
  url: string
  filename?: string
}

export interface ToolDefinition<Parameters extends z.ZodType = z.ZodType> {
  id: string
  /** What the model reads to decide when and how to call the tool. */
  description: string
  parameters: Parameters
  /** The JSON schema the model is given, when it comes as one (an MCP tool's) rather than from `parameters`. */
  inputSchema?: Record<string, unknown>
  /** Which end of a long output the model sees (the rest is saved): `tail` for commands, whose verdict comes last. */
  truncate?: 'head' | 'tail'
  execute(input: z.infer<Parameters>, context: ToolContext): Promise<ToolResult>
}

export function defineTool<Parameters extends z.ZodType>(definition: ToolDefinition<Parameters>): ToolDefinition<Parameters> {
  return definition
}

/** A failed tool call, worded for the model so it can correct itself; it becomes the tool part's error. */
export const ToolInputError = defineError('ToolInputError', (message: string) => ({ message, data: {} }))
export type ToolInputError = InstanceType<typeof ToolInputError>

/** Validates input with the tool's schema and says exactly which fields are wrong, in terms the model can act on. */
export function parseToolInput<Parameters extends z.ZodType>(definition: ToolDefinition<Parameters>, input: unknown): z.infer<Parameters> {
  const result = definition.parameters.safeParse(input)
  if (result.success) return result.data
  throw new ToolInputError(
    `The ${definition.id} tool was called with invalid arguments: ${describeIssues(result.error)}. ` +
      'Rewrite the input so it satisfies the expected schema and call the tool again.',
  )
}
