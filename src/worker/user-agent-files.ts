import { agentAt } from '../core/project-files/agent-paths'
import { afterUserDelete, afterUserMove, afterUserWrite, reviewedUnder, withReviewed } from '../core/project-files/reviewed-rules'
import type { ReviewedRule } from '../core/schema'
import { agentFileRulesIn, agentFileRulesOf } from '../session/project-agents'
import type { StoreContext } from '../store/context'
import { findProject, updateReviewedRules } from '../store/project-store'
import type { Workspace } from '../workspace/workspace'

/** A file the user writes through the app (the editor, the Files panel), relative to the project root. */
export interface UserWrite {
  path: string
  content: string | Uint8Array
}

/**
 * Runs `write`, the user's own write of `files` through the app. In a trusted project, the allow rules it brings
 * into agent files count as seen, so the user's own agent file works at once (`afterUserWrite`). Only these
 * handlers call this: the agent's tools, Python, Node and git write around it, and what they write waits for the
 * user's review. In an untrusted project nothing is recorded: trusting it shows every rule anyway.
 */
export async function writeAsUser<T>(store: StoreContext, projectID: string, workspace: Workspace, files: readonly UserWrite[], write: () => Promise<T>): Promise<T> {
  const agentFiles = files.filter((file) => agentAt(file.path) !== undefined)
  if (!agentFiles.length || !(await trusted(store, projectID))) return write()
  const before = await Promise.all(agentFiles.map((file) => agentFileRulesIn(workspace, file.path)))
  const result = await write()
  // The rules are read from what the user wrote, not from the disk after: a tool writing the same file meanwhile
  // cannot slip its rules in.
  const after = agentFiles.map((file) => agentFileRulesOf(file.path, file.content))
  await updateReviewedRules(store, projectID, (reviewed) => agentFiles.reduce((rules, file, index) => afterUserWrite(rules, file.path, before[index]!, after[index]!), reviewed))
  return result
}

/** The user deleted `path` (a file or a folder): its rules are forgotten, and returned to put back on undo. */
export async function deletedByUser(store: StoreContext, projectID: string, path: string): Promise<ReviewedRule[]> {
  const project = await findProject(store, projectID)
  const kept = project?.trust.type === 'trusted' ? reviewedUnder(project.trust.reviewed ?? [], path) : []
  await updateReviewedRules(store, projectID, (reviewed) => afterUserDelete(reviewed, path))
  return kept
}

/** The user brought a deleted file or folder back: the rules it had when deleted count as seen again. */
export function restoredByUser(store: StoreContext, projectID: string, rules: readonly ReviewedRule[]): Promise<void> {
  return rules.length ? updateReviewedRules(store, projectID, (reviewed) => withReviewed(reviewed, rules)) : Promise.resolve()
}

/** The user renamed or moved `from` to `to`: the rules seen in its files keep that standing under the new name. */
export function movedByUser(store: StoreContext, projectID: string, from: string, to: string): Promise<void> {
  return updateReviewedRules(store, projectID, (reviewed) => afterUserMove(reviewed, from, to))
}

async function trusted(store: StoreContext, projectID: string): Promise<boolean> {
  return (await findProject(store, projectID))?.trust.type === 'trusted'
}
