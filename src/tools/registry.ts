import { z } from 'zod'
import { bashTool } from './bash'
import { editTool } from './edit'
import { globTool } from './glob'
import { grepTool } from './grep'
import { invalidTool } from './invalid'
import { questionTool } from './question'
import { listTool } from './list'
import { readTool } from './read'
import { taskTool } from './task'
import { writeTool } from './write'
import { todoWriteTool } from './todowrite'
import { webFetchTool } from './webfetch'
import type { PermissionRequest } from '../core/ports'
import type { PermissionReply } from '../core/schema'
import { parseToolInput, type StepTools, type ToolContext, type ToolDefinition, type ToolResult } from './tool'
import { truncateOutput, truncationNotice } from './truncate'

/** In opencode's registry order. */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  bashTool as ToolDefinition,
  readTool as ToolDefinition,
  globTool as ToolDefinition,
  grepTool as ToolDefinition,
  listTool as ToolDefinition,
  editTool as ToolDefinition,
  writeTool as ToolDefinition,
  taskTool as ToolDefinition,
  webFetchTool as ToolDefinition,
  todoWriteTool as ToolDefinition,
  invalidTool as ToolDefinition,
  questionTool as ToolDefinition,
]

/** The part of a tool result the processor stores: the (possibly truncated) output plus what the UI shows. */
export interface ExecutedTool extends ToolResult {
  metadata: Record<string, unknown>
}

export type StepToolContext = Omit<ToolContext, 'callID' | 'abort' | 'progress' | 'ask'> & {
  progress(callID: string, update: { title?: string; metadata?: Record<string, unknown> }): void
  /** The call's id goes with each question, so the dialog and the part can be matched. */
  ask(request: PermissionRequest, callID: string): Promise<PermissionReply | void>
}

/**
 * Runs one tool call: validates the input with the tool's schema (a wrong input becomes an error the model can act
 * on), runs it, and truncates a large output centrally, keeping the whole text where the model can page through it.
 */
export async function executeTool(definition: ToolDefinition, input: unknown, context: ToolContext): Promise<ExecutedTool> {
  const parsed = parseToolInput(definition, input)
  const result = await definition.execute(parsed, context)
  const metadata = { ...result.metadata }
  // A tool that pages its own output (read says how to get the next piece) is not cut a second time.
  if (typeof metadata.truncated === 'boolean') return { ...result, metadata }
  const keep = definition.truncate ?? 'head'
  const truncation = truncateOutput(result.output, undefined, keep)
  if (!truncation.truncated) return { ...result, metadata }
  const outputID = await context.outputs.save({
    sessionID: context.sessionID,
    messageID: context.messageID,
    partID: (metadata.partID as string | undefined) ?? 'prt_unknown',
    text: result.output,
  })
  return {
    ...result,
    output: keep === 'tail' ? truncationNotice(outputID, truncation.omittedLines, 'tail') + truncation.text : truncation.text + truncationNotice(outputID, truncation.omittedLines),
    metadata: { ...metadata, truncated: true, outputID },
  }
}

export class ToolRegistry {
  readonly definitions: Map<string, ToolDefinition>

  constructor(definitions: readonly ToolDefinition[] = BUILTIN_TOOLS) {
    this.definitions = new Map(definitions.map((definition) => [definition.id, definition]))
  }

  /** What the model is told about the tools: their JSON schemas, made once. */
  private definitionsForModel: StepTools['definitions'] | undefined

  /**
   * Made on first use, which costs ~25 ms of schema conversion; the worker calls this once it is idle after starting,
   * so the first step of the first turn does not pay it while the page renders the new prompt.
   */
  modelDefinitions(): StepTools['definitions'] {
    this.definitionsForModel ??= [...this.definitions.values()]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((definition) => ({
        type: 'function' as const,
        name: definition.id,
        description: definition.description,
        inputSchema: definition.inputSchema ?? (z.toJSONSchema(definition.parameters, { io: 'input' }) as Record<string, unknown>),
      }))
    return this.definitionsForModel
  }

  /**
   * This registry with a turn's extra tools (an MCP server's), which never replace a built-in one. The built-ins'
   * schemas are reused rather than converted again.
   */
  with(extra: readonly ToolDefinition[]): ToolRegistry {
    if (extra.length === 0) return this
    const added = extra.filter((definition) => !this.definitions.has(definition.id))
    const registry = new ToolRegistry([...this.definitions.values(), ...added])
    const base = this.modelDefinitions()
    registry.definitionsForModel = [...base, ...new ToolRegistry(added).modelDefinitions()].sort((a, b) => a.name.localeCompare(b.name))
    return registry
  }

  /**
   * The tools of one step. `invalid` is among them (its description tells the model not to call it), so a call
   * routed there by repair is an ordinary call to an active tool.
   */
  stepTools(context: StepToolContext, abort: AbortSignal): StepTools {
    return {
      definitions: this.modelDefinitions(),
      resolve: (call) => this.resolve(call),
      run: ({ toolCallId, toolName, input }) => {
        const definition = this.definitions.get(toolName)
        if (!definition) return Promise.reject(new Error(`Unknown tool ${toolName}`))
        return executeTool(definition, input, {
          ...context,
          callID: toolCallId,
          abort,
          progress: (update) => context.progress(toolCallId, update),
          ask: (request) => context.ask(request, toolCallId),
        })
      },
    }
  }

  /**
   * A raw call from the model made runnable: its name repaired if need be and its JSON input read. Validation
   * against the tool's schema happens when it runs, where a failure becomes an error the model can act on.
   */
  resolve(call: { toolName: string; input: string }): { toolName: string; input: unknown } {
    // opencode's repair: a name that matches a tool only after lowercasing is corrected; anything else goes to
    // `invalid`, whose result tells the model what went wrong.
    const toolName = this.definitions.has(call.toolName) ? call.toolName : call.toolName.toLowerCase()
    if (!this.definitions.has(toolName)) {
      const available = [...this.definitions.keys()].filter((id) => id !== 'invalid').join(', ')
      return invalidCall(call.toolName, `Model tried to call unavailable tool '${call.toolName}'. Available tools: ${available}.`)
    }
    try {
      return { toolName, input: call.input.trim() === '' ? {} : (JSON.parse(call.input) as unknown) }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return invalidCall(call.toolName, `Invalid input for tool ${call.toolName}: the arguments are not valid JSON (${reason}).`)
    }
  }
}

function invalidCall(tool: string, error: string) {
  return { toolName: 'invalid', input: { tool, error } }
}
