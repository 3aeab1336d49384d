import { unifiedDiff } from '../../core/diff'
import type { FileDiff } from '../../core/schema'

/**
 * What the user's unsaved text changes against the version on disk, as a FileDiff the Changes view's DiffView
 * renders: "-" lines are only on disk (theirs), "+" lines only in the editor (mine). Loaded with `import()` when
 * the user asks for the diff, so jsdiff stays out of the first paint.
 */
export function conflictDiff(file: string, theirs: string, mine: string): FileDiff {
  const { patch, additions, deletions } = unifiedDiff({ file, before: theirs, after: mine })
  // Only the hunks: the dialog names the file and the sides itself.
  const hunks = patch.split('\n').slice(2).join('\n').replace(/\n$/, '')
  return { file, status: 'modified', additions, deletions, patch: hunks }
}
