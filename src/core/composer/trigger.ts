/**
 * Which popup the prompt's text and caret call for. `@` opens the mention search when it starts a word (so an email
 * address does not), and its query runs to the caret; `/` opens the command palette only when it starts the prompt
 * and no space follows yet (typing a space after `/name` means the user is typing its arguments).
 */
export type ComposerTrigger =
  | { type: 'mention'; query: string; start: number; end: number }
  | { type: 'command'; query: string; start: number; end: number }

export function composerTrigger(text: string, caret: number): ComposerTrigger | undefined {
  const before = text.slice(0, caret)
  const command = /^\/(\S*)$/.exec(before)
  if (command) return { type: 'command', query: command[1] ?? '', start: 0, end: caret }
  const mention = /(^|\s)@([^\s@]*)$/.exec(before)
  if (!mention) return undefined
  const query = mention[2] ?? ''
  return { type: 'mention', query, start: caret - query.length - 1, end: caret }
}

/** The text after accepting `replacement` for the trigger, and where the caret goes (after the space it adds). */
export function acceptTrigger(text: string, trigger: ComposerTrigger, replacement: string): { text: string; caret: number } {
  const after = text.slice(trigger.end).replace(/^\S*/, '')
  const inserted = `${replacement} `
  const rest = after.startsWith(' ') ? after.slice(1) : after
  return { text: text.slice(0, trigger.start) + inserted + rest, caret: trigger.start + inserted.length }
}

/** The built-in command the whole prompt names (`/compact`, maybe with spaces around), if any. */
export function wholeCommand(text: string): string | undefined {
  return /^\s*\/(\S+)\s*$/.exec(text)?.[1]
}
