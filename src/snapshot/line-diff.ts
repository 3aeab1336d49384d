/**
 * Line diffs and unified patches, written for snapshots: Myers' O((N+M)·D) algorithm after trimming the common
 * prefix and suffix, with a cap on D. Lines keep their terminator (`"a\n"`, `"a\r\n"`, or a last `"a"` without
 * one), so a change of line ending or of the final newline is a change, as in git.
 */

export type LineOp = { type: 'equal' | 'delete' | 'insert'; line: string }

export interface TextDiff {
  patch: string
  additions: number
  deletions: number
}

/**
 * Beyond this many inserted plus deleted lines the trace gets large (its memory grows with D²), so the changed
 * middle is reported as replaced wholesale: still a correct patch, just not a minimal one.
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

export function diffLines(before: readonly string[], after: readonly string[], maxEdits = MAX_EDIT_DISTANCE): LineOp[] {
  const { prefix, suffix } = commonEnds(before, after)

  const oldMiddle = before.slice(prefix, before.length - suffix)
  const newMiddle = after.slice(prefix, after.length - suffix)
  const ids = new Map<string, number>()
  const intern = (line: string) => {
    let id = ids.get(line)
    if (id === undefined) ids.set(line, (id = ids.size))
    return id
  }
  const middle =
    myers(Int32Array.from(oldMiddle, intern), Int32Array.from(newMiddle, intern), maxEdits) ?? replaceAll(oldMiddle.length, newMiddle.length)

  const ops: LineOp[] = []
  for (let index = 0; index < prefix; index++) ops.push({ type: 'equal', line: before[index]! })
  let oldIndex = 0
  let newIndex = 0
  for (const type of middle) {
    if (type === 'insert') {
      ops.push({ type, line: newMiddle[newIndex++]! })
      continue
    }
    ops.push({ type, line: oldMiddle[oldIndex++]! })
    if (type === 'equal') newIndex++
  }
  for (let index = before.length - suffix; index < before.length; index++) ops.push({ type: 'equal', line: before[index]! })
  return deletionsFirst(ops)
}

type OpType = LineOp['type']

/** How many lines at the start and at the end the two sides share (not overlapping). */
function commonEnds(before: readonly string[], after: readonly string[]): { prefix: number; suffix: number } {
  const shorter = Math.min(before.length, after.length)
  let prefix = 0
  while (prefix < shorter && before[prefix] === after[prefix]) prefix++
  let suffix = 0
  while (suffix < shorter - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++
  return { prefix, suffix }
}

function replaceAll(deletions: number, insertions: number): OpType[] {
  return [...Array<OpType>(deletions).fill('delete'), ...Array<OpType>(insertions).fill('insert')]
}

/** The shortest edit script from `a` to `b`, or undefined when it needs more than `maxEdits` edits. */
function myers(a: Int32Array, b: Int32Array, maxEdits: number): OpType[] | undefined {
  const n = a.length
  const m = b.length
  const max = n + m
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d] holds v[-d..d] after round d: all backtracking needs.
  const trace: Int32Array[] = []
  let found = -1
  for (let d = 0; d <= Math.min(max, maxEdits) && found < 0; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) found = d
    }
    trace.push(v.slice(offset - d, offset + d + 1))
  }
  if (found < 0) return undefined

  const ops: OpType[] = []
  let x = n
  let y = m
  for (let d = found; d > 0; d--) {
    const previous = trace[d - 1]!
    const at = (k: number) => previous[k + d - 1]!
    const k = x - y
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1))
    const previousK = down ? k + 1 : k - 1
    const previousX = at(previousK)
    const previousY = previousX - previousK
    const snake = Math.min(x - previousX, y - previousY)
    for (let step = 0; step < snake; step++) ops.push('equal')
    ops.push(down ? 'insert' : 'delete')
    x = previousX
    y = previousY
  }
  for (let step = 0; step < x; step++) ops.push('equal')
  return ops.reverse()
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

export interface UnifiedDiffInput {
  file: string
  /** Undefined when the file did not exist before (an added file). */
  before: string | undefined
  /** Undefined when the file no longer exists (a deleted file). */
  after: string | undefined
  context?: number
  maxEdits?: number
}

/** A unified patch (`--- a/file`, `+++ b/file`, `@@` hunks with context) and its line counts. */
export function unifiedDiff(input: UnifiedDiffInput): TextDiff {
  const context = input.context ?? CONTEXT_LINES
  const ops = diffLines(splitLines(input.before ?? ''), splitLines(input.after ?? ''), input.maxEdits)
  const header = [
    input.before === undefined ? '--- /dev/null' : `--- a/${input.file}`,
    input.after === undefined ? '+++ /dev/null' : `+++ b/${input.file}`,
  ]

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

  const lines = header
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
  return { patch: `${lines.join('\n')}\n`, additions, deletions }
}

/** `start,count` as diff prints it: 1-based, `,1` left out, and an empty range named by the line before it. */
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`
  if (count === 1) return `${start + 1}`
  return `${start + 1},${count}`
}

/**
 * Added and deleted line counts without an edit script, for files too big to diff: lines are matched as multisets
 * after trimming the common prefix and suffix. Never more than the true counts, and equal to them unless lines
 * moved.
 */
export function lineChangeCounts(before: readonly string[], after: readonly string[]): { additions: number; deletions: number } {
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
