import type { AgentSummary, ProjectCommandSummary, ProjectFileMatch } from '../../core/protocol'

/** One entry of the prompt's popup: what it shows, what accepting it inserts or runs, and why it is off if it is. */
export interface ComposerOption {
  id: string
  label: string
  detail?: string
  /** Text put in place of the typed trigger (`@path`, `/name`); absent for a built-in, which runs instead. */
  insert?: string
  builtin?: BuiltinCommand
  disabledReason?: string
}

export type BuiltinCommand = 'new' | 'compact' | 'undo' | 'redo' | 'share' | 'export' | 'models' | 'agents' | 'init'

export const BUILTIN_COMMANDS: readonly { name: BuiltinCommand; description: string }[] = [
  { name: 'new', description: 'Start a new session' },
  { name: 'compact', description: 'Summarise the conversation so far' },
  { name: 'undo', description: 'Revert the last turn (conversation and files)' },
  { name: 'redo', description: 'Bring back what the last revert hid' },
  { name: 'share', description: 'Share this session' },
  { name: 'export', description: 'Export this session' },
  { name: 'models', description: 'Choose the model' },
  { name: 'agents', description: 'Choose the agent' },
  { name: 'init', description: 'Ask the agent to write or improve AGENTS.md for this project' },
]

export const isBuiltin = (name: string): name is BuiltinCommand => BUILTIN_COMMANDS.some((command) => command.name === name)

/** Built-ins first, then the project's commands, each kept when its name starts with (or contains) the query. */
export function commandOptions(query: string, project: readonly ProjectCommandSummary[]): ComposerOption[] {
  const wanted = query.toLowerCase()
  const matches = (name: string) => name.toLowerCase().includes(wanted)
  const builtins = BUILTIN_COMMANDS.filter((command) => matches(command.name)).map((command): ComposerOption => {
    const shadowed = project.some((entry) => entry.name === command.name)
    return {
      id: `builtin-${command.name}`,
      label: `/${command.name}`,
      detail: shadowed ? `${command.description} (built-in; the project's /${command.name} is hidden)` : command.description,
      builtin: command.name,
    }
  })
  const own = project
    .filter((entry) => matches(entry.name) && !isBuiltin(entry.name))
    .map((entry): ComposerOption => ({
      id: `project-${entry.name}`,
      label: `/${entry.name}`,
      ...(commandDetail(entry) ? { detail: commandDetail(entry) } : {}),
      insert: `/${entry.name}`,
      ...(entry.problem ? { disabledReason: entry.problem } : {}),
    }))
  const starts = (option: ComposerOption) => (option.label.slice(1).toLowerCase().startsWith(wanted) ? 0 : 1)
  return [...builtins.sort((a, b) => starts(a) - starts(b)), ...own.sort((a, b) => starts(a) - starts(b))]
}

/**
 * A project command's entry text: its description, then the agent and model it runs with when its file names them,
 * so the palette says so before it is sent (the prompt box's pickers do not change for it).
 */
export function commandDetail(entry: ProjectCommandSummary): string | undefined {
  const under = [entry.agent ? `agent ${entry.agent}` : '', entry.model ? `model ${entry.model}` : ''].filter(Boolean).join(', ')
  return [entry.description, under ? `runs as ${under}` : ''].filter(Boolean).join(' · ') || undefined
}

/** Subagents the user may mention (matching the query) ahead of the files and folders the worker found. */
export function mentionOptions(query: string, agents: readonly AgentSummary[], files: readonly ProjectFileMatch[]): ComposerOption[] {
  const wanted = query.toLowerCase()
  const mentionable = agents.filter(
    (agent) => agent.mode !== 'primary' && !agent.hidden && !agent.disabled && agent.name.toLowerCase().includes(wanted),
  )
  return [
    ...mentionable.map((agent): ComposerOption => ({ id: `agent-${agent.name}`, label: `@${agent.name}`, detail: `Agent · ${agent.description}`, insert: `@${agent.name}` })),
    ...files.map((file): ComposerOption => ({ id: `file-${file.path}`, label: file.path, detail: file.type === 'directory' ? 'Folder' : 'File', insert: `@${file.path}` })),
  ]
}
