import { defineError } from '../core/errors'

/**
 * The edit tool's matching, after opencode's `edit.ts` (which took it from cline and gemini-cli): a cascade of
 * replacers, from exact to forgiving, each yielding candidate strings that really occur in the file. The first
 * candidate that is unique (or any candidate, with `replaceAll`) is replaced. Pure: no workspace, no context.
 */

/** Yields candidate search strings for `find` that are substrings of `content`. */
export type Replacer = (content: string, find: string) => Generator<string, void, unknown>

export type ReplacerName =
  | 'simple'
  | 'line-trimmed'
  | 'block-anchor'
  | 'whitespace-normalized'
  | 'indentation-flexible'
  | 'escape-normalized'
  | 'trimmed-boundary'
  | 'context-aware'
  | 'multi-occurrence'

/** Middle-line similarity (0..1) a block found by its first and last lines must reach (opencode's values). */
export const SINGLE_CANDIDATE_SIMILARITY_THRESHOLD = 0.65
export const MULTIPLE_CANDIDATES_SIMILARITY_THRESHOLD = 0.65

export const IDENTICAL_MESSAGE = 'No changes to apply: oldString and newString are identical.'
export const EMPTY_OLD_MESSAGE =
  'oldString cannot be empty when editing an existing file. Provide the exact text to replace, or use write for an intentional full-file replacement.'
export const NOT_FOUND_MESSAGE =
  'Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.'
export const MULTIPLE_MATCHES_MESSAGE =
  'Found multiple matches for oldString. Provide more surrounding context to make the match unique.'
export const DISPROPORTIONATE_MESSAGE =
  'Refusing replacement because the matched span is much larger than oldString. Re-read the file and provide the full exact oldString for the intended replacement.'

export type ReplaceFailure = 'identical' | 'empty' | 'not-found' | 'multiple-matches' | 'disproportionate'

const ReplaceErrorDefinition = defineError('ReplaceError', (reason: ReplaceFailure, message: string) => ({ message, data: { reason } }))

/** An edit that cannot be applied, worded for the model; `reason` is for code and tests. */
export class ReplaceError extends ReplaceErrorDefinition {
  get reason(): ReplaceFailure {
    return this.data.reason
  }
}

function levenshtein(a: string, b: string): number {
  if (a === '' || b === '') return Math.max(a.length, b.length)
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
    }
    previous = current
  }
  return previous[b.length]!
}

/** Lines `start..end` (inclusive) of `lines`, joined back: the exact substring of the content they came from. */
function block(lines: readonly string[], start: number, end: number): string {
  return lines.slice(start, end + 1).join('\n')
}

/** `find` split into lines, without the empty last line a trailing newline leaves. */
function searchLinesOf(find: string): string[] {
  const lines = find.split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

export const simpleReplacer: Replacer = function* (_content, find) {
  yield find
}

/** Same lines, ignoring each line's leading and trailing whitespace. */
export const lineTrimmedReplacer: Replacer = function* (content, find) {
  const lines = content.split('\n')
  const search = searchLinesOf(find)
  for (let i = 0; i <= lines.length - search.length; i++) {
    if (search.every((line, j) => lines[i + j]!.trim() === line.trim())) yield block(lines, i, i + search.length - 1)
  }
}

/**
 * Blocks of three or more lines found by their first and last lines (trimmed), of about the same length, whose
 * middle lines are similar enough by Levenshtein distance. With several such blocks only the most similar counts.
 */
export const blockAnchorReplacer: Replacer = function* (content, find) {
  if (find.split('\n').length < 3) return
  const lines = content.split('\n')
  const search = searchLinesOf(find)
  const first = search[0]!.trim()
  const last = search[search.length - 1]!.trim()
  const size = search.length
  const maxLineDelta = Math.max(1, Math.floor(size * 0.25))

  const candidates: Array<{ start: number; end: number }> = []
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== first) continue
    for (let j = i + 2; j < lines.length; j++) {
      if (lines[j]!.trim() !== last) continue
      if (Math.abs(j - i + 1 - size) <= maxLineDelta) candidates.push({ start: i, end: j })
      // Only the first closing anchor after an opening one counts.
      break
    }
  }
  if (candidates.length === 0) return

  const lineSimilarity = (start: number, j: number) => {
    const original = lines[start + j]!.trim()
    const wanted = search[j]!.trim()
    const longest = Math.max(original.length, wanted.length)
    return longest === 0 ? undefined : 1 - levenshtein(original, wanted) / longest
  }

  if (candidates.length === 1) {
    const { start, end } = candidates[0]!
    const actual = end - start + 1
    const linesToCheck = Math.min(size - 2, actual - 2)
    let similarity = linesToCheck > 0 ? 0 : 1
    for (let j = 1; j < size - 1 && j < actual - 1; j++) {
      const line = lineSimilarity(start, j)
      if (line === undefined) continue
      similarity += line / linesToCheck
      // opencode stops as soon as the running total reaches the threshold, so later lines are not compared.
      if (similarity >= SINGLE_CANDIDATE_SIMILARITY_THRESHOLD) break
    }
    if (similarity >= SINGLE_CANDIDATE_SIMILARITY_THRESHOLD) yield block(lines, start, end)
    return
  }

  let best: { start: number; end: number } | undefined
  let bestSimilarity = -1
  for (const candidate of candidates) {
    const actual = candidate.end - candidate.start + 1
    const linesToCheck = Math.min(size - 2, actual - 2)
    let similarity = 1
    if (linesToCheck > 0) {
      similarity = 0
      for (let j = 1; j < size - 1 && j < actual - 1; j++) similarity += lineSimilarity(candidate.start, j) ?? 0
      similarity /= linesToCheck
    }
    if (similarity > bestSimilarity) {
      bestSimilarity = similarity
      best = candidate
    }
  }
  if (best && bestSimilarity >= MULTIPLE_CANDIDATES_SIMILARITY_THRESHOLD) yield block(lines, best.start, best.end)
}

/** Runs of whitespace count as one space: whole lines, words inside a line, and blocks of as many lines. */
export const whitespaceNormalizedReplacer: Replacer = function* (content, find) {
  const normalize = (text: string) => text.replace(/\s+/g, ' ').trim()
  const wanted = normalize(find)
  const lines = content.split('\n')
  for (const line of lines) {
    const normal = normalize(line)
    if (normal === wanted) {
      yield line
      continue
    }
    if (!normal.includes(wanted)) continue
    const words = find.trim().split(/\s+/)
    const pattern = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')
    const match = line.match(new RegExp(pattern))
    if (match) yield match[0]
  }
  const findLines = find.split('\n')
  if (findLines.length <= 1) return
  for (let i = 0; i <= lines.length - findLines.length; i++) {
    const text = block(lines, i, i + findLines.length - 1)
    if (normalize(text) === wanted) yield text
  }
}

/** Blocks equal to `find` once each side's common leading indentation is removed. */
export const indentationFlexibleReplacer: Replacer = function* (content, find) {
  const dedent = (text: string) => {
    const lines = text.split('\n')
    const filled = lines.filter((line) => line.trim().length > 0)
    if (filled.length === 0) return text
    const indent = Math.min(...filled.map((line) => line.match(/^\s*/)![0].length))
    return lines.map((line) => (line.trim().length === 0 ? line : line.slice(indent))).join('\n')
  }
  const wanted = dedent(find)
  const lines = content.split('\n')
  const count = find.split('\n').length
  for (let i = 0; i <= lines.length - count; i++) {
    const text = block(lines, i, i + count - 1)
    if (dedent(text) === wanted) yield text
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', "'": "'", '"': '"', '`': '`', '\\': '\\', '\n': '\n', $: '$' }

function unescape(text: string): string {
  return text.replace(/\\(n|t|r|'|"|`|\\|\n|\$)/g, (match, character: string) => ESCAPES[character] ?? match)
}

/** `find` written with escape sequences (`\n`, `\"`, …) where the file has the characters themselves, or the reverse. */
export const escapeNormalizedReplacer: Replacer = function* (content, find) {
  const wanted = unescape(find)
  if (content.includes(wanted)) yield wanted
  const lines = content.split('\n')
  const count = wanted.split('\n').length
  for (let i = 0; i <= lines.length - count; i++) {
    const text = block(lines, i, i + count - 1)
    if (unescape(text) === wanted) yield text
  }
}

/** `find` without its surrounding whitespace, or blocks of as many lines whose trimmed text equals it. */
export const trimmedBoundaryReplacer: Replacer = function* (content, find) {
  const trimmed = find.trim()
  if (trimmed === find) return
  if (content.includes(trimmed)) yield trimmed
  const lines = content.split('\n')
  const count = find.split('\n').length
  for (let i = 0; i <= lines.length - count; i++) {
    const text = block(lines, i, i + count - 1)
    if (text.trim() === trimmed) yield text
  }
}

/**
 * Blocks of the same line count found by their first and last lines, where at least half of the non-empty middle
 * lines match exactly (trimmed).
 */
export const contextAwareReplacer: Replacer = function* (content, find) {
  if (find.split('\n').length < 3) return
  const search = searchLinesOf(find)
  const lines = content.split('\n')
  const first = search[0]!.trim()
  const last = search[search.length - 1]!.trim()
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== first) continue
    for (let j = i + 2; j < lines.length; j++) {
      if (lines[j]!.trim() !== last) continue
      const candidate = lines.slice(i, j + 1)
      if (candidate.length === search.length) {
        let matching = 0
        let nonEmpty = 0
        for (let k = 1; k < candidate.length - 1; k++) {
          const line = candidate[k]!.trim()
          const wanted = search[k]!.trim()
          if (line.length === 0 && wanted.length === 0) continue
          nonEmpty++
          if (line === wanted) matching++
        }
        if (nonEmpty === 0 || matching / nonEmpty >= 0.5) yield candidate.join('\n')
      }
      // Only the first closing anchor after an opening one counts.
      break
    }
  }
}

/** Every exact occurrence (so `replaceAll` has something to act on even after the fuzzy replacers). */
export const multiOccurrenceReplacer: Replacer = function* (content, find) {
  let from = 0
  for (;;) {
    const index = content.indexOf(find, from)
    if (index === -1) return
    yield find
    from = index + find.length
  }
}

/** The cascade, in opencode's order. */
export const REPLACERS: ReadonlyArray<{ name: ReplacerName; replacer: Replacer }> = [
  { name: 'simple', replacer: simpleReplacer },
  { name: 'line-trimmed', replacer: lineTrimmedReplacer },
  { name: 'block-anchor', replacer: blockAnchorReplacer },
  { name: 'whitespace-normalized', replacer: whitespaceNormalizedReplacer },
  { name: 'indentation-flexible', replacer: indentationFlexibleReplacer },
  { name: 'escape-normalized', replacer: escapeNormalizedReplacer },
  { name: 'trimmed-boundary', replacer: trimmedBoundaryReplacer },
  { name: 'context-aware', replacer: contextAwareReplacer },
  { name: 'multi-occurrence', replacer: multiOccurrenceReplacer },
]

/**
 * A fuzzy match that swallows far more than `oldString` (a whole function found by its first and last lines, an
 * escaped string unfolded into many lines) is refused: an error the model can recover from beats a silent,
 * oversized replacement.
 */
export function isDisproportionateMatch(search: string, oldString: string): boolean {
  const oldLines = oldString.split('\n').length
  const searchLines = search.split('\n').length
  if (searchLines >= Math.max(oldLines + 3, oldLines * 2)) return true
  if (oldLines === 1) return false
  const oldLength = oldString.trim().length
  return search.trim().length > Math.max(oldLength + 500, oldLength * 4)
}

export interface Replacement {
  content: string
  /** The replacer whose candidate was used. */
  strategy: ReplacerName
  /** How many occurrences were replaced (1 unless `replaceAll`). */
  occurrences: number
}

/**
 * Replaces `oldString` in `content` with `newString`, trying each replacer in turn. Without `replaceAll` the text
 * found must occur exactly once. Throws a `ReplaceError` with opencode's messages otherwise.
 */
export function replace(content: string, oldString: string, newString: string, replaceAll = false): Replacement {
  if (oldString === newString) throw new ReplaceError('identical', IDENTICAL_MESSAGE)
  if (oldString === '') throw new ReplaceError('empty', EMPTY_OLD_MESSAGE)

  let found = false
  for (const { name, replacer } of REPLACERS) {
    for (const search of replacer(content, oldString)) {
      // An empty candidate (from a whitespace-only oldString) would match between every character.
      if (search === '') continue
      const index = content.indexOf(search)
      if (index === -1) continue
      found = true
      if (isDisproportionateMatch(search, oldString)) throw new ReplaceError('disproportionate', DISPROPORTIONATE_MESSAGE)
      if (replaceAll) {
        // split/join rather than String.replaceAll, which would read `$&`, `$1`… in newString as patterns.
        const parts = content.split(search)
        return { content: parts.join(newString), strategy: name, occurrences: parts.length - 1 }
      }
      if (index !== content.lastIndexOf(search)) continue
      return { content: content.slice(0, index) + newString + content.slice(index + search.length), strategy: name, occurrences: 1 }
    }
  }
  if (found) throw new ReplaceError('multiple-matches', MULTIPLE_MATCHES_MESSAGE)
  throw new ReplaceError('not-found', NOT_FOUND_MESSAGE)
}
