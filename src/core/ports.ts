import type { PinnedTool, Todo } from './schema'

// What tools ask of the rest of the app, as ports: the runtime backs them with storage, the permission gate and
// subagents; tests with memory. Tools and the permission rules see only these shapes, never the database.

/** What a tool asks the user before it acts (opencode's `ctx.ask`). */
export interface PermissionRequest {
  /** The permission key: `edit`, `bash`, `read`, `external_directory`, `webfetch`, … */
  permission: string
  /** What this call touches, matched against the rules (file paths relative to the project, command lines, URLs). */
  patterns: string[]
  /** What an "always" answer remembers (for bash, the command prefix by the arity table followed by ` *`). */
  always: string[]
  /** Shown in the ask dialog (a diff, the command, the URL). */
  metadata: Record<string, unknown>
  /** The tool's definition, for a tool its provider may change (an MCP tool): an approval holds only for the same. */
  tool?: PinnedTool
}

/** A subagent's turn, run as a child session of the calling one. */
export interface SubtaskRequest {
  agent: string
  description: string
  prompt: string
  /** Continue an earlier child session instead of starting a new one. */
  sessionID?: string
}

/** What a subagent's run returns: its child session, its final text and the model it ran with. */
export interface SubtaskResult {
  sessionID: string
  output: string
  model?: { providerID: string; modelID: string }
}

/**
 * When each file was last read in this session, so write and edit can refuse to overwrite a file the model has
 * not seen in its current state (opencode's FileTime).
 */
export interface FileTimes {
  /** Records a read of `path` whose content was last modified at `modified`. */
  read(path: string, modified: number): void
  /** Throws a `ToolInputError` telling the model to read the file first when it was never read or changed since. */
  assertFresh(path: string, modified: number): void
}

/** The whole text of a tool output that was cut for the model, kept so it can page through it with `read`. */
export interface ToolOutputs {
  /** Keeps `text` and resolves with the id the model reads it back by (a file name under OUTPUT_FOLDER). */
  save(output: { sessionID: string; messageID: string; partID: string; text: string }): Promise<string>
  /** The saved text, or undefined when no output has this id. */
  read(id: string): Promise<string | undefined>
}

/** The session's task list (the todowrite tool). */
export interface Todos {
  /** Replaces the session's list and resolves with the list as stored. */
  write(sessionID: string, todos: Todo[]): Promise<Todo[]>
}
