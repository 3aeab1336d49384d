import type { Part } from '../../core/schema'

/** What the user typed in a prompt (text tabcode added on its own, like attached file contents, left out). */
export function promptText(parts: readonly Part[]): string {
  return parts
    .flatMap((part) => (part.type === 'text' && !part.synthetic ? [part.text] : []))
    .join('\n\n')
    .trim()
}

/** The automatic "continue" message after a compaction is marked in its text part's metadata. */
export function isCompactionContinue(part: Part): boolean {
  return part.type === 'text' && !!part.metadata?.['compaction_continue']
}
