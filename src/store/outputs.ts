import type { StoreContext } from './context'
import { parseWith } from '../core/errors'
import { ToolOutputSchema, type ToolOutput } from '../core/schema'

/** Keeps a tool's whole output behind a truncated part, validated, so the model can page through it later. */
export async function saveOutput(context: StoreContext, input: ToolOutput): Promise<ToolOutput> {
  const row = parseWith(ToolOutputSchema, input, 'tool output')
  await context.db.outputs.put(row)
  return row
}

/** A saved output by its id (`tool_…`), if it is still stored. */
export function readOutput(context: StoreContext, outputID: string): Promise<ToolOutput | undefined> {
  return context.db.outputs.get(outputID)
}

/** Every saved output of one session. */
export function sessionOutputs(context: StoreContext, sessionID: string): Promise<ToolOutput[]> {
  return context.db.outputs.where('sessionID').equals(sessionID).toArray()
}
