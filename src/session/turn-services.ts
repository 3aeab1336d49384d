import type { PermissionRequest } from '../core/ports'
import type { Workspace, WorkspaceBackend } from '../workspace/workspace'
import type { FileDiff, PermissionReply, PermissionRule, SessionInfo } from '../core/schema'

/** Where each project's files live for the tools, and which backend serves them. */
export interface WorkspaceSource {
  get(projectID: string): Promise<Workspace>
  status(projectID: string): { backend: WorkspaceBackend; reason?: string }
}

/** The permission check a tool's `ask` goes through (the worker backs it with the ask service). */
export interface PermissionGate {
  /**
   * Resolves when allowed (by a rule or by the user), with the user's reply when one was asked (a question's
   * answers); rejects with a named permission error otherwise.
   */
  check(input: {
    session: SessionInfo
    messageID: string
    callID?: string
    /** The agent's rules (defaults first); the session's own rules beat them, remembered approvals come last. */
    agentRules: PermissionRule[]
    sessionRules?: PermissionRule[]
    request: PermissionRequest
    signal: AbortSignal
  }): Promise<PermissionReply | void>
  /** The tools this agent may not use at all (denied with `*`): hidden from the model. */
  hiddenTools(toolIDs: string[], agentRules: PermissionRule[], sessionRules?: PermissionRule[]): string[]
}

/** Snapshots around each step (before and after every step, so any step can be reverted). */
export interface SnapshotSource {
  track(projectID: string, workspace: Workspace): Promise<string>
  changedFiles(before: string, after: string): Promise<string[]>
  diffs(before: string, after: string): Promise<FileDiff[]>
  /** Net diffs across turns (each a start and end snapshot), a file counted once from first change to last. */
  sessionDiffs(turns: { from: string; to: string }[]): Promise<FileDiff[]>
}

/** Used when the owner gives none: every request is allowed and nothing is hidden (tests of the bare loop). */
export const allowEverything: PermissionGate = {
  check: async () => {},
  hiddenTools: () => [],
}
