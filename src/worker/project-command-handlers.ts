import type { ProjectCommandSummary } from '../core/dto/commands'
import { commandSummary, commandInvocation, expandTemplate } from '../core/project-files/commands'
import { InputError } from '../core/errors'
import { loadProjectCommands } from '../session/project-commands'
import type { Workspace } from '../workspace/workspace'

/** The `/` palette's project entries: each command, or a malformed file with what is wrong with it. */
export async function projectCommandSummaries(workspace: Workspace): Promise<ProjectCommandSummary[]> {
  return (await loadProjectCommands(workspace)).map((parsed) => (parsed.type === 'command' ? commandSummary(parsed.command) : parsed.summary))
}

export interface ExpandedCommand {
  name: string
  text: string
  agent?: string
  /** opencode's `provider/model`, as written; the prompt runs with it when a configured provider offers it. */
  model?: string
}

/**
 * A prompt that starts with `/name` where `name` is one of the project's commands becomes its filled template, run
 * with the command's agent and model when it names them; anything else is left as typed. A malformed command file
 * is refused with what is wrong, so the user's text is not sent as if it were a prompt.
 */
export async function expandProjectCommand(workspace: Workspace, text: string): Promise<ExpandedCommand | undefined> {
  const invocation = commandInvocation(text)
  if (!invocation) return undefined
  const parsed = (await loadProjectCommands(workspace)).find((entry) =>
    (entry.type === 'command' ? entry.command.name : entry.summary.name) === invocation.name,
  )
  if (!parsed) return undefined
  if (parsed.type === 'problem') throw new InputError('command', parsed.summary.problem ?? `/${invocation.name} cannot be used`)
  const { command } = parsed
  return {
    name: command.name,
    text: expandTemplate(command.template, invocation.arguments),
    ...(command.agent ? { agent: command.agent } : {}),
    ...(command.model ? { model: command.model } : {}),
  }
}
