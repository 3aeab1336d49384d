import { z } from 'zod'
import type { StoreContext } from '../store/context'
import { describeIssues } from '../core/errors'
import type { Workspace } from '../workspace/workspace'

/** What a tool asks the user before it acts (opencode's `ctx.ask`). */
export interface PermissionRequest {
  /** The permission key: `edit`, `bash`, `read`, `external_directory`, `webfetch`, … */
  permission: string
  /** What this call touches, matched against the rules (file paths relative to the project, command lines, URLs). */
  patterns: string[]
  /** What an "always" answer remembers (for bash, the command prefix by the arity table followed by ` *`). */
  always: string[]
  /** Shown in the ask dialog (a diff, the command, the URL). */
  metadata: Record<string, unknown>
}

/** A subagent's turn, run as a child session of the calling one. */
export interface SubtaskRequest {
  agent: string
  description: string
  prompt: string
  /** Continue an earlier child session instead of starting a new one. */
  sessionID?: string
}

/** What a subagent's run returns: its child session, its final text and the model it ran with. */
export interface SubtaskResult {
  sessionID: string
  output: string
  model?: { providerID: string; modelID: string }
}

/**
 * When each file was last read in this session, so write and edit can refuse to overwrite a file the model has
 * not seen in its current state (opencode's FileTime).
 */
export interface FileTimes {
  /** Records a read of `path` whose content was last modified at `modified`. */
  read(path: string, modified: number): void
  /** Throws a `ToolInputError` telling the model to read the file first when it was never read or changed since. */
  assertFresh(path: string, modified: number): void
}

/** What a tool gets besides its input: where it runs, how to stop, and how to report progress. */
export interface ToolContext {
  store: StoreContext
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
   */
  ask(request: PermissionRequest): Promise<void>
  files: FileTimes
  /** Runs a subagent in a child session and resolves with its final text. */
  subtask(request: SubtaskRequest): Promise<SubtaskResult>
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
  /** Which end of a long output the model sees (the rest is saved): `tail` for commands, whose verdict comes last. */
  truncate?: 'head' | 'tail'
  execute(input: z.infer<Parameters>, context: ToolContext): Promise<ToolResult>
}

export function defineTool<Parameters extends z.ZodType>(definition: ToolDefinition<Parameters>): ToolDefinition<Parameters> {
  return definition
}

/** A failed tool call, worded for the model so it can correct itself; it becomes the tool part's error. */
export class ToolInputError extends Error {
  override name = 'ToolInputError'
}

/** Validates input with the tool's schema and says exactly which fields are wrong, in terms the model can act on. */
export function parseToolInput<Parameters extends z.ZodType>(definition: ToolDefinition<Parameters>, input: unknown): z.infer<Parameters> {
  const result = definition.parameters.safeParse(input)
  if (result.success) return result.data
  throw new ToolInputError(
    `The ${definition.id} tool was called with invalid arguments: ${describeIssues(result.error)}. ` +
      'Rewrite the input so it satisfies the expected schema and call the tool again.',
  )
}
