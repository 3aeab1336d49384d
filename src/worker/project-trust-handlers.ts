import type { ProjectTrustReport } from '../core/dto/trust'
import { NotFoundError } from '../core/errors'
import { clampAgentFiles, isTrusted, reviewProjectFiles } from '../core/project-files/trust'
import { loadProjectAgents } from '../session/project-agents'
import { loadProjectCommands } from '../session/project-commands'
import type { StoreContext } from '../store/context'
import { findProject } from '../store/project-store'
import type { Workspace } from '../workspace/workspace'

/**
 * A project's trust and the review of its files: every rule they would add once trusted, the built-in agents they
 * change and the commands that switch agent or model; in a trusted project, the allow rules written since the user
 * last saw them. Without a workspace (it failed to open) the files count as none.
 */
export async function projectTrustReport(context: StoreContext, projectID: string, workspace: Workspace | undefined): Promise<ProjectTrustReport> {
  const project = await findProject(context, projectID)
  if (!project) throw new NotFoundError('project', projectID)
  const [agents, commands] = workspace ? await Promise.all([loadProjectAgents(workspace), loadProjectCommands(workspace)]) : [{ agents: [] }, []]
  const usable = commands.flatMap((entry) => (entry.type === 'command' ? [entry.command] : []))
  return {
    project,
    review: reviewProjectFiles(agents.agents, usable),
    unreviewed: isTrusted(project) ? clampAgentFiles(agents.agents, project.trust).withheld : [],
  }
}
