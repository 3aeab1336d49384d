/** A snippet cut at its match: the three runs a result shows, the middle one inside <mark>. */
export interface Highlighted {
  before: string
  match: string
  after: string
}

/**
 * Splits `snippet` at `match`; an out-of-range match (a stale or odd answer) highlights nothing rather than throw.
 * With `lead`, the text before the match is cut to about that many characters (at a word where it can), so the
 * match stays on the first lines of a clamped row.
 */
export function highlight(snippet: string, match: { start: number; length: number }, options: { lead?: number } = {}): Highlighted {
  const start = Math.max(0, Math.min(snippet.length, Math.floor(match.start)))
  const end = Math.max(start, Math.min(snippet.length, start + Math.floor(match.length)))
  return { before: shortenLead(snippet.slice(0, start), options.lead), match: snippet.slice(start, end), after: snippet.slice(end) }
}

function shortenLead(text: string, lead: number | undefined): string {
  if (lead === undefined || text.length <= lead) return text
  const tail = text.slice(text.length - lead)
  const space = tail.indexOf(' ')
  const cut = space > 0 && space < lead / 2 ? tail.slice(space + 1) : tail
  return `…${cut}`
}
