import { isIgnored, type IgnoreRule } from '../../core/gitignore'

/** Never indexed, whatever `.gitignore` says: installed packages and git's own files. */
const NEVER_INDEXED = new Set(['node_modules', '.git'])

/**
 * Whether a path of the folder (relative to its root) stays out of listings, searches and snapshots: it, or a
 * folder above it, is `node_modules` or `.git` or ignored by the root `.gitignore`. Such a path is still there on
 * disk and reachable by its name (git reads `.git/HEAD`, `cat node_modules/x/package.json` works).
 */
export function isLeftOut(rules: readonly IgnoreRule[], relative: string, isDirectory: boolean): boolean {
  const segments = relative.split('/')
  for (const [index, segment] of segments.entries()) {
    if (NEVER_INDEXED.has(segment)) return true
    const last = index === segments.length - 1
    if (isIgnored(rules, segments.slice(0, index + 1).join('/'), last ? isDirectory : true)) return true
  }
  return false
}
