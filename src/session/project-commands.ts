import { COMMAND_FOLDERS, commandName, parseCommand, type ParsedCommand } from '../core/project-files/commands'
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
