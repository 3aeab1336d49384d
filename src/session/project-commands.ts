import { COMMAND_FOLDERS, commandInvocation, commandName, expandTemplate, parseCommand, type ParsedCommand } from '../core/project-files/commands'
import { InputError } from '../core/errors'
import type { Workspace } from '../workspace/workspace'
import { markdownFiles } from './project-markdown'

const decoder = new TextDecoder()
/** A command file is a prompt template: anything this large is not one, and is listed with that problem. */
const MAX_COMMAND_BYTES = 256 * 1024

/**
 * The project's commands, read fresh from its files on each call (a handful of small files; no cache to go stale
 * when the user edits one). A later folder's command of the same name replaces an earlier one's, as opencode merges.
 */
export async function loadProjectCommands(workspace: Workspace): Promise<ParsedCommand[]> {
  const byName = new Map<string, ParsedCommand>()
  for (const folder of COMMAND_FOLDERS) {
    const base = `${workspace.root}/${folder}`
    for (const file of await markdownFiles(workspace, base)) {
      const relative = file.path.slice(base.length + 1)
      const name = commandName(relative)
      const shown = `${folder}/${relative}`
      if (file.size > MAX_COMMAND_BYTES) {
        byName.set(name, { type: 'problem', summary: { name, path: shown, problem: `${shown}: it is ${file.size} bytes, over the ${MAX_COMMAND_BYTES / 1024} KB a command may be` } })
        continue
      }
      const text = decoder.decode(await workspace.readFile(file.path))
      byName.set(name, parseCommand(name, shown, text))
    }
  }
  return [...byName.values()].sort((a, b) => nameOf(a).localeCompare(nameOf(b)))
}

const nameOf = (parsed: ParsedCommand) => (parsed.type === 'command' ? parsed.command.name : parsed.summary.name)

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
  const parsed = (await loadProjectCommands(workspace)).find((entry) => nameOf(entry) === invocation.name)
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
