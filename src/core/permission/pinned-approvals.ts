import type { Approval, PinnedTool } from '../schema'
import { matchWildcard } from './wildcard'

/** Whether two pinned definitions are the same tool (both absent counts as the same). */
export function samePinnedTool(a: PinnedTool | undefined, b: PinnedTool | undefined): boolean {
  if (!a || !b) return a === b
  return a.type === b.type && a.server === b.server && a.tool === b.tool && a.description === b.description && a.inputSchema === b.inputSchema
}

/**
 * The remembered approvals that hold for a request about `tool` (an MCP tool's definition as offered now, or none):
 * one pinned to a definition holds only while the tool is exactly that, and one without a pin only for requests
 * without a tool, so an approval from before pins existed asks once more. `changedFrom` is the definition an
 * approval of this permission was given for when the tool is no longer that: the question shows what changed.
 */
export function approvalsFor(approvals: readonly Approval[], permission: string, tool: PinnedTool | undefined): { holding: Approval[]; changedFrom?: PinnedTool } {
  const holding: Approval[] = []
  let changedFrom: PinnedTool | undefined
  for (const approval of approvals) {
    if (samePinnedTool(approval.tool, tool)) holding.push(approval)
    else if (tool && approval.tool && approval.action === 'allow' && matchWildcard(permission, approval.permission)) changedFrom = approval.tool
  }
  return changedFrom ? { holding, changedFrom } : { holding }
}
