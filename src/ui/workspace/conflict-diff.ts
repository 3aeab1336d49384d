import { structuredPatch } from 'diff'
import type { FileDiff } from '../../core/schema'

/**
 * What the user's unsaved text changes against the version on disk, as a FileDiff the Changes view's DiffView
 * renders: "-" lines are only on disk (theirs), "+" lines only in the editor (mine). Loaded with `import()` when
 * the user asks for the diff, so jsdiff stays out of the first paint.
 */
export function conflictDiff(file: string, theirs: string, mine: string): FileDiff {
  const patch = structuredPatch(file, file, theirs, mine, 'on disk', 'yours', { context: 3 })
  let additions = 0
  let deletions = 0
  const lines: string[] = []
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`)
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions++
      else if (line.startsWith('-')) deletions++
      lines.push(line)
    }
  }
  return { file, status: 'modified', additions, deletions, patch: lines.join('\n') }
}
