import { pairChangedLines, wordDiff, type WordSegment } from '../../../core/diff'
import { highlightTokens } from '../code/highlight'
import type { DiffLine } from './diff-lines'
import { lineContent, mergeSpans, tokensByLine, type ClassedText, type Span } from './diff-spans'

/**
 * Syntax colours and changed words for a patch's lines, one span list per line (empty for hunk headers and
 * notes). Loaded with `import()` by `PatchLines`: it pulls in jsdiff and the highlighter, which stay out of the
 * first paint.
 */
export async function decoratePatch(lines: readonly DiffLine[], file: string | undefined): Promise<Span[][]> {
  const contents = lines.map(lineContent)
  const words: Array<WordSegment[] | undefined> = []
  for (const [removed, added] of pairChangedLines(lines.map((line) => line.type))) {
    const diff = wordDiff(contents[removed]!, contents[added]!)
    if (!diff) continue
    words[removed] = diff.removed
    words[added] = diff.added
  }
  const tokens: Array<ClassedText[] | undefined> = []
  if (file) {
    // One parse over the patch's lines in order: old and new lines mixed read well enough for colouring, and a
    // line parsed alone would lose the strings and comments it sits in.
    const indexes = contents.flatMap((content, index) => (content === undefined ? [] : [index]))
    const byLine = tokensByLine(await highlightTokens(indexes.map((index) => contents[index]).join('\n'), { file }))
    for (const [position, index] of indexes.entries()) tokens[index] = byLine[position] ?? []
  }
  return lines.map((_, index) => {
    const content = contents[index]
    return content === undefined ? [] : mergeSpans(content, tokens[index], words[index])
  })
}
