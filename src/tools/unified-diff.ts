/**
 * Line diffs for the edit and write tools: a unified diff in the shape of jsdiff's `createTwoFilesPatch` (which
 * opencode shows in its permission dialog and stores as `filediff.patch`), and addition/deletion counts.
 */

export interface DiffStats {
  additions: number
  deletions: number
}

/** What the edit and write tools show and store about a change (opencode's `filediff`). */
export interface FileDiff extends DiffStats {
  file: string
  /** Unified diff, common indentation trimmed. */
  patch: string
}

type Operation = { type: 'equal' | 'delete' | 'insert'; token: string }

/**
 * Above this many edits the minimal diff is not searched for (Myers' trace grows with its square): the differing
 * middle of the file is shown as removed and added, which is still a correct diff.
 */
const MAX_EDIT_DISTANCE = 1_000
const CONTEXT_LINES = 3

/** Lines with their newline kept, so a last line without one differs from the same line with one (as in jsdiff). */
function tokenize(text: string): string[] {
  if (text === '') return []
  const tokens = text.split('\n').map((line) => `${line}\n`)
  const last = tokens.pop()!
  if (last !== '\n') tokens.push(last.slice(0, -1))
  return tokens
}

function diffTokens(before: string[], after: string[]): Operation[] {
  let start = 0
  while (start < before.length && start < after.length && before[start] === after[start]) start++
  let endBefore = before.length
  let endAfter = after.length
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--
    endAfter--
  }
  const equal = (token: string): Operation => ({ type: 'equal', token })
  return [
    ...before.slice(0, start).map(equal),
    ...myers(before.slice(start, endBefore), after.slice(start, endAfter)),
    ...before.slice(endBefore).map(equal),
  ]
}

/** Myers' O(ND) shortest edit script, keeping for each round only the diagonals it can have reached. */
function myers(a: string[], b: string[]): Operation[] {
  const removeAll = a.map((token): Operation => ({ type: 'delete', token }))
  const insertAll = b.map((token): Operation => ({ type: 'insert', token }))
  if (a.length === 0 || b.length === 0) return [...removeAll, ...insertAll]
  const max = a.length + b.length
  const v = new Int32Array(2 * max + 3)
  const offset = max + 1
  // trace[d] holds v[-d..d] as it was before round d.
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    if (d > MAX_EDIT_DISTANCE) return [...removeAll, ...insertAll]
    trace.push(v.slice(offset - d, offset + d + 1))
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < a.length && y < b.length && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= a.length && y >= b.length) return backtrack(a, b, trace)
    }
  }
  return [...removeAll, ...insertAll]
}

function backtrack(a: string[], b: string[], trace: Int32Array[]): Operation[] {
  const operations: Operation[] = []
  let x = a.length
  let y = b.length
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!
    const at = (k: number) => v[k + d]!
    const k = x - y
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const previousX = d === 0 ? 0 : at(previousK)
    const previousY = d === 0 ? 0 : previousX - previousK
    while (x > previousX && y > previousY) {
      operations.push({ type: 'equal', token: a[x - 1]! })
      x--
      y--
    }
    if (d === 0) break
    if (x === previousX) operations.push({ type: 'insert', token: b[y - 1]! })
    else operations.push({ type: 'delete', token: a[x - 1]! })
    x = previousX
    y = previousY
  }
  return operations.reverse()
}

/** How many lines `after` adds to and removes from `before`. */
export function diffStats(before: string, after: string): DiffStats {
  const stats = { additions: 0, deletions: 0 }
  for (const operation of diffTokens(tokenize(before), tokenize(after))) {
    if (operation.type === 'insert') stats.additions++
    if (operation.type === 'delete') stats.deletions++
  }
  return stats
}

/**
 * A unified diff of one file, with three lines of context, headed like jsdiff's
 * `createTwoFilesPatch(fileName, fileName, before, after)`.
 */
export function unifiedDiff(fileName: string, before: string, after: string): string {
  const operations = diffTokens(tokenize(before), tokenize(after))
  const output = [`Index: ${fileName}`, '='.repeat(67), `--- ${fileName}`, `+++ ${fileName}`]
  const changes = operations.flatMap((operation, index) => (operation.type === 'equal' ? [] : [index]))
  // Line counts before each operation, to number hunks.
  const beforeLine: number[] = []
  const afterLine: number[] = []
  let oldCount = 0
  let newCount = 0
  for (const operation of operations) {
    beforeLine.push(oldCount)
    afterLine.push(newCount)
    if (operation.type !== 'insert') oldCount++
    if (operation.type !== 'delete') newCount++
  }

  let index = 0
  while (index < changes.length) {
    const start = Math.max(0, changes[index]! - CONTEXT_LINES)
    let end = Math.min(operations.length, changes[index]! + CONTEXT_LINES + 1)
    index++
    // Changes separated by at most twice the context share a hunk.
    while (index < changes.length && changes[index]! - CONTEXT_LINES <= end) {
      end = Math.min(operations.length, changes[index]! + CONTEXT_LINES + 1)
      index++
    }
    const hunk = operations.slice(start, end)
    const oldLines = hunk.filter((operation) => operation.type !== 'insert').length
    const newLines = hunk.filter((operation) => operation.type !== 'delete').length
    const oldStart = beforeLine[start]! + (oldLines === 0 ? 0 : 1)
    const newStart = afterLine[start]! + (newLines === 0 ? 0 : 1)
    output.push(`@@ -${oldStart},${oldLines} +${newStart},${newLines} @@`)
    for (const operation of hunk) {
      const prefix = operation.type === 'equal' ? ' ' : operation.type === 'delete' ? '-' : '+'
      const ended = operation.token.endsWith('\n')
      output.push(prefix + (ended ? operation.token.slice(0, -1) : operation.token))
      if (!ended) output.push('\\ No newline at end of file')
    }
  }
  return output.join('\n') + '\n'
}

/**
 * Removes the indentation every changed and context line shares, so a diff deep inside nested code stays readable
 * in a narrow dialog (opencode's `trimDiff`).
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

/** A text without its BOM and with LF line endings, as diffs compare files. */
function comparable(text: string): string {
  return (text.startsWith('\uFEFF') ? text.slice(1) : text).replaceAll('\r\n', '\n')
}

/** The diff of one file's change as the tools report it: line endings and BOM do not count as changes. */
export function fileDiff(file: string, before: string, after: string): FileDiff {
  const from = comparable(before)
  const to = comparable(after)
  return { file, patch: trimDiff(unifiedDiff(file, from, to)), ...diffStats(from, to) }
}
