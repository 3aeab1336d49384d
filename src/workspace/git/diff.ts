import { structuredPatch } from 'diff'
import { short, type FileSet, type FileVersion } from './repo'

/** One file that differs between two sides, with its hunks (none for a binary file or an empty new one). */
export interface FileChange {
  path: string
  before?: FileVersion
  after?: FileVersion
  binary: boolean
  hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[]
  added: number
  removed: number
}

const ZERO = '0000000'
const decoder = new TextDecoder()

function isBinary(bytes: Uint8Array): boolean {
  // git's own test: a NUL byte in the first 8000.
  return bytes.subarray(0, 8000).includes(0)
}

/** The files whose content or mode differs between `before` and `after`, by path, restricted by `include`. */
export async function compare(before: FileSet, after: FileSet, include: (path: string) => boolean = () => true): Promise<FileChange[]> {
  const paths = [...new Set([...before.keys(), ...after.keys()])].filter(include).sort()
  const changes: FileChange[] = []
  for (const path of paths) {
    const a = before.get(path)
    const b = after.get(path)
    if (a && b && a.oid === b.oid && a.mode === b.mode) continue
    const [oldBytes, newBytes] = await Promise.all([a?.read() ?? new Uint8Array(), b?.read() ?? new Uint8Array()])
    const change: FileChange = { path, before: a, after: b, binary: false, hunks: [], added: 0, removed: 0 }
    if (isBinary(oldBytes) || isBinary(newBytes)) change.binary = true
    else if (a?.oid !== b?.oid) {
      change.hunks = structuredPatch(path, path, decoder.decode(oldBytes), decoder.decode(newBytes), '', '', { context: 3 }).hunks
      for (const hunk of change.hunks) {
        for (const line of hunk.lines) {
          if (line.startsWith('+')) change.added++
          else if (line.startsWith('-')) change.removed++
        }
      }
    }
    changes.push(change)
  }
  return changes
}

const octal = (mode: number) => mode.toString(8).padStart(6, '0')

/** `-3,2`, `-3` for one line, `-2,0` (the line before) for none, as git writes a hunk's range. */
function range(start: number, lines: number): string {
  if (lines === 0) return `${start - 1},0`
  return lines === 1 ? `${start}` : `${start},${lines}`
}

/** A change as `git diff` prints it. */
export function formatPatch(change: FileChange): string {
  const { path, before, after } = change
  const out = [`diff --git a/${path} b/${path}`]
  if (!before) out.push(`new file mode ${octal(after!.mode)}`)
  else if (!after) out.push(`deleted file mode ${octal(before.mode)}`)
  else if (before.mode !== after.mode) out.push(`old mode ${octal(before.mode)}`, `new mode ${octal(after.mode)}`)
  if (before?.oid !== after?.oid) {
    const sameMode = before && after && before.mode === after.mode ? ` ${octal(before.mode)}` : ''
    out.push(`index ${before ? short(before.oid) : ZERO}..${after ? short(after.oid) : ZERO}${sameMode}`)
  }
  const oldName = before ? `a/${path}` : '/dev/null'
  const newName = after ? `b/${path}` : '/dev/null'
  if (change.binary) out.push(`Binary files ${oldName} and ${newName} differ`)
  else if (change.hunks.length > 0) {
    out.push(`--- ${oldName}`, `+++ ${newName}`)
    for (const hunk of change.hunks) {
      out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines)
    }
  }
  return out.map((line) => `${line}\n`).join('')
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/** `N files changed, X insertions(+), Y deletions(-)`, leaving out a zero count as git does. */
export function summary(changes: readonly FileChange[]): string {
  const added = changes.reduce((sum, change) => sum + change.added, 0)
  const removed = changes.reduce((sum, change) => sum + change.removed, 0)
  const parts = [plural(changes.length, 'file changed', 'files changed')]
  if (added > 0 || removed === 0) parts.push(plural(added, 'insertion(+)', 'insertions(+)'))
  if (removed > 0 || added === 0) parts.push(plural(removed, 'deletion(-)', 'deletions(-)'))
  return ` ${parts.join(', ')}\n`
}

/** `git diff --stat`: a line per file with its count and a bar of + and -, then the summary. */
export function formatStat(changes: readonly FileChange[]): string {
  if (changes.length === 0) return ''
  const nameWidth = Math.max(...changes.map((change) => change.path.length))
  const counts = changes.map((change) => (change.binary ? 'Bin' : String(change.added + change.removed)))
  const countWidth = Math.max(...counts.map((count) => count.length))
  const largest = Math.max(...changes.map((change) => change.added + change.removed))
  // git fits the bars into an 80-column terminal.
  const barWidth = Math.max(1, 80 - nameWidth - countWidth - 6)
  const scale = largest > barWidth ? barWidth / largest : 1
  const lines = changes.map((change, index) => {
    const plus = '+'.repeat(Math.round(change.added * scale) || (change.added > 0 ? 1 : 0))
    const minus = '-'.repeat(Math.round(change.removed * scale) || (change.removed > 0 ? 1 : 0))
    const bar = change.binary || plus + minus === '' ? '' : ` ${plus}${minus}`
    return ` ${change.path.padEnd(nameWidth)} | ${counts[index]!.padStart(countWidth)}${bar}\n`
  })
  return lines.join('') + summary(changes)
}
