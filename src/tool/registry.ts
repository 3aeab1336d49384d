import { jsonSchema, tool, type ToolSet } from 'ai'
import { z } from 'zod'
import { ascending } from '../session/id'
import { invalidTool } from './invalid'
import { todoWriteTool } from './todowrite'
import { webFetchTool } from './webfetch'
import { parseToolInput, type ToolContext, type ToolDefinition, type ToolResult } from './tool'
import { truncateOutput, truncationNotice } from './truncate'

export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  todoWriteTool as ToolDefinition,
  webFetchTool as ToolDefinition,
  invalidTool as ToolDefinition,
]

/** The part of a tool result the processor stores: the (possibly truncated) output plus what the UI shows. */
export interface ExecutedTool extends ToolResult {
  metadata: Record<string, unknown>
}

export type StepToolContext = Omit<ToolContext, 'callID' | 'abort' | 'progress'> & {
  progress(callID: string, update: { title?: string; metadata?: Record<string, unknown> }): void
}

/**
 * Runs one tool call: validates the input with the tool's schema (a wrong input becomes an error the model can act
 * on), runs it, and truncates a large output centrally, keeping the whole text where the model can page through it.
 */
export async function executeTool(definition: ToolDefinition, input: unknown, context: ToolContext): Promise<ExecutedTool> {
  const parsed = parseToolInput(definition, input)
  const result = await definition.execute(parsed, context)
  const metadata = { ...result.metadata }
  const truncation = truncateOutput(result.output)
  if (!truncation.truncated) return { ...result, metadata }
  const outputID = ascending('tool', context.store.now())
  await context.store.db.outputs.put({
    id: outputID,
    sessionID: context.sessionID,
    messageID: context.messageID,
    partID: (metadata.partID as string | undefined) ?? 'prt_unknown',
    text: result.output,
    time: { created: context.store.now() },
  })
  return {
    ...result,
    output: truncation.text + truncationNotice(outputID, truncation.omittedLines),
    metadata: { ...metadata, truncated: true, outputID },
  }
}

export class ToolRegistry {
  readonly definitions: Map<string, ToolDefinition>

  constructor(definitions: readonly ToolDefinition[] = BUILTIN_TOOLS) {
    this.definitions = new Map(definitions.map((definition) => [definition.id, definition]))
  }

  /**
   * The tools of one step, as the AI SDK wants them. `invalid` is among them (its description tells the model not to
   * call it) because the SDK only accepts a repaired call to a tool that is active.
   */
  toolSet(context: StepToolContext, abort: AbortSignal): ToolSet {
    const tools: ToolSet = {}
    for (const definition of [...this.definitions.values()].sort((a, b) => a.id.localeCompare(b.id))) {
      tools[definition.id] = tool({
        description: definition.description,
        // The SDK does not validate (no `validate`): parseToolInput does, with a message written for the model.
        inputSchema: jsonSchema(z.toJSONSchema(definition.parameters, { io: 'input' }) as never),
        execute: (input: unknown, options) =>
          executeTool(definition, input, {
            ...context,
            callID: options.toolCallId,
            abort: options.abortSignal ?? abort,
            progress: (update) => context.progress(options.toolCallId, update),
          }),
      })
    }
    return tools
  }

  /**
   * opencode's repair: a name that matches a tool only after lowercasing is corrected; anything else goes to the
   * `invalid` tool, whose result tells the model what went wrong.
   */
  repair(call: { toolName: string; input: string }, error: { message: string }): { toolName: string; input: string } {
    const lower = call.toolName.toLowerCase()
    if (lower !== call.toolName && this.definitions.has(lower)) return { ...call, toolName: lower }
    return { ...call, toolName: 'invalid', input: JSON.stringify({ tool: call.toolName, error: error.message }) }
  }
}
