/**
 * The notes the bash tool appends to a command's output for the model, in a `<shell_metadata>` block at its end, as
 * opencode's bash does. They are part of the stored output, so they travel in exports in opencode's own shape.
 */

/** opencode's words for a command the user stopped. */
export const USER_ABORTED_NOTE = 'User aborted the command'

export function withShellNotes(output: string, notes: readonly string[]): string {
  return notes.length > 0 ? `${output}\n\n<shell_metadata>\n${notes.join('\n')}\n</shell_metadata>` : output
}

/** The notes at the end of a command's output (none when it has no `<shell_metadata>` block there). */
export function shellNotes(output: string): string[] {
  const block = /<shell_metadata>\n([\s\S]*?)\n<\/shell_metadata>$/.exec(output)
  return block ? block[1]!.split('\n') : []
}

/**
 * Whether the user stopped the command: its output says so, as opencode's does. This is how a stopped command
 * that still answered (completed, with its output so far) is told apart from one that ran to its end.
 */
export function stoppedByUser(output: string): boolean {
  return shellNotes(output).includes(USER_ABORTED_NOTE)
}
