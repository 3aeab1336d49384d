import { parseOptions } from './options'
import { readText, splitLines, type CommandHandler } from './types'

/** Beyond this many line pairs the comparison would be slow and large; diff then only says the files differ. */
const MAX_CELLS = 4_000_000
const CONTEXT = 3

/** `diff [-u] [-q] a b`: always a unified diff (the format tools and models read best). Status 0 same, 1 different, 2 trouble. */
export const diff: CommandHandler = async (context) => {
  const options = parseOptions(context.args, { flags: 'uqNaBbwi', values: 'U', long: { brief: 'q', unified: 'U' } })
  if (options.error || options.operands.length !== 2) {
    const problem =
      options.error ??
      (options.operands.length < 2
        ? `missing operand after '${options.operands.at(-1) ?? 'diff'}'`
        : `extra operand '${options.operands[2]}'`)
    context.stderr.write(`diff: ${problem}\n`)
    return 2
  }
  const [leftName, rightName] = options.operands as [string, string]
  const left = leftName === '-' ? context.stdin : await readText(context, leftName)
  const right = rightName === '-' ? context.stdin : await readText(context, rightName)
  if (left === undefined || right === undefined) return 2
  if (left === right) return 0
  if (options.flags.has('q')) {
    context.stdout.write(`Files ${leftName} and ${rightName} differ\n`)
    return 1
  }
  const contextLines = Number(options.values.get('U')?.at(-1) ?? CONTEXT)
  context.stdout.write(unifiedDiff(leftName, rightName, left, right, contextLines))
  return 1
}

type Edit = { type: 'same' | 'remove' | 'add'; text: string }

/** A unified diff of two texts, or a one-line note when they are too large to compare line by line. */
export function unifiedDiff(leftName: string, rightName: string, left: string, right: string, contextLines = CONTEXT): string {
  const a = splitLines(left)
  const b = splitLines(right)
  if (a.length * b.length > MAX_CELLS) return `Files ${leftName} and ${rightName} differ (too large to compare)\n`
  const edits = lineEdits(a, b)
  let output = `--- ${leftName}\n+++ ${rightName}\n`
  const changed = edits.map((edit, index) => (edit.type === 'same' ? -1 : index)).filter((index) => index >= 0)
  let cursor = 0
  while (cursor < changed.length) {
    const start = Math.max(0, changed[cursor]! - contextLines)
    let end = changed[cursor]! + contextLines
    while (cursor + 1 < changed.length && changed[cursor + 1]! - contextLines <= end + 1) end = changed[++cursor]! + contextLines
    cursor++
    end = Math.min(edits.length - 1, end)
    const hunk = edits.slice(start, end + 1)
    const before = edits.slice(0, start)
    const leftStart = before.filter((edit) => edit.type !== 'add').length
    const rightStart = before.filter((edit) => edit.type !== 'remove').length
    const leftCount = hunk.filter((edit) => edit.type !== 'add').length
    const rightCount = hunk.filter((edit) => edit.type !== 'remove').length
    output += `@@ -${range(leftStart, leftCount)} +${range(rightStart, rightCount)} @@\n`
    for (const edit of hunk) output += `${edit.type === 'same' ? ' ' : edit.type === 'remove' ? '-' : '+'}${edit.text}\n`
  }
  if (!left.endsWith('\n') || !right.endsWith('\n')) output += '\\ No newline at end of file\n'
  return output
}

function range(start: number, count: number): string {
  // An empty range names the line before it, as diff -u does.
  return `${count === 0 ? start : start + 1},${count}`
}

/** Longest common subsequence by dynamic programming; fine for the file sizes an agent diffs. */
function lineEdits(a: string[], b: string[]): Edit[] {
  const table = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!)
    }
  }
  const edits: Edit[] = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      edits.push({ type: 'same', text: a[i]! })
      i++
      j++
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) edits.push({ type: 'remove', text: a[i++]! })
    else edits.push({ type: 'add', text: b[j++]! })
  }
  while (i < a.length) edits.push({ type: 'remove', text: a[i++]! })
  while (j < b.length) edits.push({ type: 'add', text: b[j++]! })
  return edits
}
