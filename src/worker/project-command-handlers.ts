import type { ProjectCommandSummary } from '../core/dto/commands'
import { commandSummary } from '../core/project-files/commands'
import { loadProjectCommands } from '../session/project-commands'
import type { Workspace } from '../workspace/workspace'

/** The `/` palette's project entries: each command, or a malformed file with what is wrong with it. */
export async function projectCommandSummaries(workspace: Workspace): Promise<ProjectCommandSummary[]> {
  return (await loadProjectCommands(workspace)).map((parsed) => (parsed.type === 'command' ? commandSummary(parsed.command) : parsed.summary))
}
