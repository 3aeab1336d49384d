import { diffLines as diffLineChanges, diffWordsWithSpace } from 'diff'

/**
 * The app's one text diff, on jsdiff: line diffs and unified patches for snapshots (per-turn and session changes)
 * and for the edit and write tools' metadata, and word changes inside changed lines for the views. Lines keep
 * their terminator (`"a\n"`, `"a\r\n"`, or a last `"a"` without one), so a change of line ending or of the final
 * newline is a change, as in git.
 *
 * jsdiff is about 8 KB gzip: the UI loads this module with `import()` (word marks, conflict diffs), never from
 * the first-paint graph (`ui/app/bundle-boundary.test.ts`).
 */

export type LineOp = { type: 'equal' | 'delete' | 'insert'; line: string }

export interface DiffStats {
  additions: number
  deletions: number
}

export interface TextDiff extends DiffStats {
  patch: string
}

/** What the edit and write tools show and store about a change (opencode's `filediff`). */
export interface ToolFileDiff extends DiffStats {
  file: string
  /** Unified diff, common indentation trimmed. */
  patch: string
}

/**
 * Beyond this many inserted plus deleted lines jsdiff's search grows too costly, so the changed middle is
 * reported as replaced wholesale: still a correct patch, just not a minimal one.
 */
export const MAX_EDIT_DISTANCE = 1000
export const CONTEXT_LINES = 3

export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  const last = lines.pop()!
  const result = lines.map((line) => `${line}\n`)
  if (last !== '') result.push(last)
  return result
}

/** The line edit script from `before` to `after`: shortest unless it needs more than `maxEdits` edits. */
export function diffLines(before: string, after: string, maxEdits = MAX_EDIT_DISTANCE): LineOp[] {
  const changes = diffLineChanges(before, after, { maxEditLength: maxEdits })
  if (!changes) return replaceMiddle(splitLines(before), splitLines(after))
  const ops: LineOp[] = []
  for (const change of changes) {
    const type = change.added ? 'insert' : change.removed ? 'delete' : 'equal'
    for (const line of splitLines(change.value)) ops.push({ type, line })
  }
  return deletionsFirst(ops)
}

/** The common prefix and suffix kept, everything between them deleted and inserted. */
function replaceMiddle(before: readonly string[], after: readonly string[]): LineOp[] {
  const { prefix, suffix } = commonEnds(before, after)
  return [
    ...before.slice(0, prefix).map((line): LineOp => ({ type: 'equal', line })),
    ...before.slice(prefix, before.length - suffix).map((line): LineOp => ({ type: 'delete', line })),
    ...after.slice(prefix, after.length - suffix).map((line): LineOp => ({ type: 'insert', line })),
    ...before.slice(before.length - suffix).map((line): LineOp => ({ type: 'equal', line })),
  ]
}

/** How many lines at the start and at the end the two sides share (not overlapping). */
function commonEnds(before: readonly string[], after: readonly string[]): { prefix: number; suffix: number } {
  const shorter = Math.min(before.length, after.length)
  let prefix = 0
  while (prefix < shorter && before[prefix] === after[prefix]) prefix++
  let suffix = 0
  while (suffix < shorter - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++
  return { prefix, suffix }
}

/** Within each run of changes, deletions before insertions: the order `diff -u` and git print. */
function deletionsFirst(ops: LineOp[]): LineOp[] {
  const result: LineOp[] = []
  let deleted: LineOp[] = []
  let inserted: LineOp[] = []
  const flush = () => {
    result.push(...deleted, ...inserted)
    deleted = []
    inserted = []
  }
  for (const op of ops) {
    if (op.type === 'delete') deleted.push(op)
    else if (op.type === 'insert') inserted.push(op)
    else {
      flush()
      result.push(op)
    }
  }
  flush()
  return result
}

/** The `@@` hunks of an edit script with `context` lines around changes, and its counts. */
function formatHunks(ops: readonly LineOp[], context: number, range: (start: number, count: number) => string): { lines: string[] } & DiffStats {
  // Old and new line counts before each op, for hunk headers.
  const oldAt = new Int32Array(ops.length + 1)
  const newAt = new Int32Array(ops.length + 1)
  const runs: Array<{ start: number; end: number }> = []
  let additions = 0
  let deletions = 0
  for (const [index, op] of ops.entries()) {
    oldAt[index + 1] = oldAt[index]! + (op.type === 'insert' ? 0 : 1)
    newAt[index + 1] = newAt[index]! + (op.type === 'delete' ? 0 : 1)
    if (op.type === 'equal') continue
    if (op.type === 'insert') additions++
    else deletions++
    const last = runs.at(-1)
    // Changes closer than twice the context share one hunk.
    if (last && index - last.end <= 2 * context) last.end = index + 1
    else runs.push({ start: index, end: index + 1 })
  }

  const lines: string[] = []
  for (const run of runs) {
    const start = Math.max(0, run.start - context)
    const end = Math.min(ops.length, run.end + context)
    const oldRange = range(oldAt[start]!, oldAt[end]! - oldAt[start]!)
    const newRange = range(newAt[start]!, newAt[end]! - newAt[start]!)
    lines.push(`@@ -${oldRange} +${newRange} @@`)
    for (let index = start; index < end; index++) {
      const op = ops[index]!
      const prefix = op.type === 'equal' ? ' ' : op.type === 'delete' ? '-' : '+'
      if (op.line.endsWith('\n')) lines.push(prefix + op.line.slice(0, -1))
      else lines.push(prefix + op.line, '\\ No newline at end of file')
    }
  }
  return { lines, additions, deletions }
}

/** `start,count` as diff and git print it: 1-based, `,1` left out, and an empty range named by the line before it. */
function gitRange(start: number, count: number): string {
  if (count === 0) return `${start},0`
  if (count === 1) return `${start + 1}`
  return `${start + 1},${count}`
}

export interface UnifiedDiffInput {
  file: string
  /** Undefined when the file did not exist before (an added file). */
  before: string | undefined
  /** Undefined when the file no longer exists (a deleted file). */
  after: string | undefined
  context?: number
  maxEdits?: number
}

/** A snapshot's unified patch (`--- a/file`, `+++ b/file`, `@@` hunks with context) and its line counts. */
export function unifiedDiff(input: UnifiedDiffInput): TextDiff {
  const ops = diffLines(input.before ?? '', input.after ?? '', input.maxEdits)
  const { lines, additions, deletions } = formatHunks(ops, input.context ?? CONTEXT_LINES, gitRange)
  const header = [
    input.before === undefined ? '--- /dev/null' : `--- a/${input.file}`,
    input.after === undefined ? '+++ /dev/null' : `+++ b/${input.file}`,
  ]
  return { patch: `${[...header, ...lines].join('\n')}\n`, additions, deletions }
}

/**
 * Added and deleted line counts without an edit script, for files too big to diff: lines are matched as multisets
 * after trimming the common prefix and suffix. Never more than the true counts, and equal to them unless lines
 * moved.
 */
export function lineChangeCounts(before: readonly string[], after: readonly string[]): DiffStats {
  const { prefix, suffix } = commonEnds(before, after)
  const counts = new Map<string, number>()
  for (let index = prefix; index < before.length - suffix; index++) counts.set(before[index]!, (counts.get(before[index]!) ?? 0) + 1)
  let additions = 0
  for (let index = prefix; index < after.length - suffix; index++) {
    const left = counts.get(after[index]!) ?? 0
    if (left > 0) counts.set(after[index]!, left - 1)
    else additions++
  }
  let deletions = 0
  for (const left of counts.values()) deletions += left
  return { additions, deletions }
}

/**
 * Removes the indentation every changed and context line shares, so a diff deep inside nested code stays readable
 * in a narrow dialog or card (opencode's `trimDiff`).
 */
export function trimDiff(diff: string): string {
  const lines = diff.split('\n')
  const isContent = (line: string) =>
    (line.startsWith('+') || line.startsWith('-') || line.startsWith(' ')) && !line.startsWith('---') && !line.startsWith('+++')
  let indent = Infinity
  for (const line of lines) {
    if (!isContent(line)) continue
    const text = line.slice(1)
    if (text.trim().length > 0) indent = Math.min(indent, text.match(/^\s*/)![0].length)
  }
  if (indent === Infinity || indent === 0) return diff
  return lines.map((line) => (isContent(line) ? line[0] + line.slice(1 + indent) : line)).join('\n')
}

/** `start,count` as jsdiff prints it: the count always written. */
function jsdiffRange(start: number, count: number): string {
  return `${count === 0 ? start : start + 1},${count}`
}

/** A text without its BOM and with LF line endings, as the tools compare files. */
function comparable(text: string): string {
  return (text.startsWith('\uFEFF') ? text.slice(1) : text).replaceAll('\r\n', '\n')
}

/**
 * The diff of one file's change as the edit and write tools report it, headed like jsdiff's
 * `createTwoFilesPatch(file, file, …)` (what opencode stores as `filediff.patch`): line endings and a BOM do not
 * count as changes, and the common indentation is trimmed.
 */
export function toolFileDiff(file: string, before: string, after: string): ToolFileDiff {
  const ops = diffLines(comparable(before), comparable(after))
  const { lines, additions, deletions } = formatHunks(ops, CONTEXT_LINES, jsdiffRange)
  const header = [`Index: ${file}`, '='.repeat(67), `--- ${file}`, `+++ ${file}`]
  return { file, patch: trimDiff(`${[...header, ...lines].join('\n')}\n`), additions, deletions }
}

/** A run of a changed line's text, and whether it is what changed (the rest both sides share). */
export interface WordSegment {
  text: string
  changed: boolean
}

/** Past this, word diffs cost more than they tell: the whole line reads as changed. */
export const MAX_WORD_DIFF_CHARS = 2_000

/**
 * The words that differ between a removed line and the added line that replaced it, each side as segments.
 * Undefined when the lines share no word (or are too long): marking every word would only repeat the +/-.
 */
export function wordDiff(removed: string, added: string): { removed: WordSegment[]; added: WordSegment[] } | undefined {
  if (removed.length > MAX_WORD_DIFF_CHARS || added.length > MAX_WORD_DIFF_CHARS) return undefined
  const changes = diffWordsWithSpace(removed, added)
  if (!changes.some((change) => !change.added && !change.removed && change.value.trim() !== '')) return undefined
  const side = (keep: 'added' | 'removed') =>
    changes
      .filter((change) => !change[keep === 'added' ? 'removed' : 'added'])
      .map((change): WordSegment => ({ text: change.value, changed: change[keep] }))
  return { removed: side('removed'), added: side('added') }
}

/**
 * Which removed line pairs with which added line in a patch's line kinds: within each run of removals followed
 * by additions, the first with the first and so on (as git's word diff and GitHub pair them).
 */
export function pairChangedLines(kinds: readonly string[]): Array<[removed: number, added: number]> {
  const pairs: Array<[number, number]> = []
  let index = 0
  while (index < kinds.length) {
    if (kinds[index] !== 'removed') {
      index++
      continue
    }
    const removedStart = index
    while (kinds[index] === 'removed') index++
    const addedStart = index
    while (kinds[index] === 'added') index++
    const count = Math.min(addedStart - removedStart, index - addedStart)
    for (let offset = 0; offset < count; offset++) pairs.push([removedStart + offset, addedStart + offset])
  }
  return pairs
}
