import { z } from 'zod'
import type { StoreContext } from '../session/context'
import { describeIssues } from '../session/errors'

/** What a tool gets besides its input: where it runs, how to stop, and how to report progress. */
export interface ToolContext {
  store: StoreContext
  sessionID: string
  messageID: string
  callID: string
  abort: AbortSignal
  /** Streams a title or metadata (e.g. partial command output) into the running tool part. */
  progress(update: { title?: string; metadata?: Record<string, unknown> }): void
}

export interface ToolResult {
  title: string
  output: string
  metadata?: Record<string, unknown>
}

export interface ToolDefinition<Parameters extends z.ZodType = z.ZodType> {
  id: string
  /** What the model reads to decide when and how to call the tool. */
  description: string
  parameters: Parameters
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
