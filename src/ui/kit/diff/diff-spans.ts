import type { WordSegment } from '../../../core/diff'
import type { DiffLine } from './diff-lines'

/** A run of a line's text with the classes it is drawn with, and whether it is a changed word (drawn as a mark). */
export interface Span {
  text: string
  classes: string
  changed: boolean
}

/** A syntax token as the shared highlighter gives it (`ui/kit/code/highlight.ts`). */
export interface ClassedText {
  text: string
  classes: string
}

/**
 * Splits the highlighter's tokens for a joined text into one token list per line: tokens never span a line break
 * (the highlighter emits breaks as their own `"\n"` runs), but a plain run may hold several.
 */
export function tokensByLine(tokens: readonly ClassedText[]): ClassedText[][] {
  const lines: ClassedText[][] = [[]]
  for (const token of tokens) {
    const parts = token.text.split('\n')
    for (const [index, part] of parts.entries()) {
      if (index > 0) lines.push([])
      if (part) lines.at(-1)!.push({ text: part, classes: token.classes })
    }
  }
  return lines
}

/**
 * One line's text cut where either the syntax tokens or the word changes change, so each span carries both the
 * token's colour and whether it is a changed word. Either may be missing (not loaded yet, or none).
 */
export function mergeSpans(text: string, tokens?: readonly ClassedText[], words?: readonly WordSegment[]): Span[] {
  const cuts = new Set<number>([0, text.length])
  const classAt: Array<{ end: number; classes: string }> = []
  const changedAt: Array<{ end: number; changed: boolean }> = []
  let offset = 0
  for (const token of tokens ?? []) {
    offset += token.text.length
    cuts.add(offset)
    classAt.push({ end: offset, classes: token.classes })
  }
  offset = 0
  for (const word of words ?? []) {
    offset += word.text.length
    cuts.add(offset)
    changedAt.push({ end: offset, changed: word.changed })
  }
  const points = [...cuts].filter((cut) => cut <= text.length).sort((a, b) => a - b)
  const spans: Span[] = []
  let tokenIndex = 0
  let wordIndex = 0
  for (let index = 0; index + 1 < points.length; index++) {
    const [start, end] = [points[index]!, points[index + 1]!]
    while (classAt[tokenIndex] && classAt[tokenIndex]!.end <= start) tokenIndex++
    while (changedAt[wordIndex] && changedAt[wordIndex]!.end <= start) wordIndex++
    const span = { text: text.slice(start, end), classes: classAt[tokenIndex]?.classes ?? '', changed: changedAt[wordIndex]?.changed ?? false }
    const last = spans.at(-1)
    if (last && last.classes === span.classes && last.changed === span.changed) last.text += span.text
    else spans.push(span)
  }
  return spans
}

/** What a patch line says without its `+`, `-` or ` ` sign; hunk headers and notes have no content to colour. */
export function lineContent(line: DiffLine): string | undefined {
  if (line.type === 'added' || line.type === 'removed' || line.type === 'context') return line.text.slice(1)
  return undefined
}
