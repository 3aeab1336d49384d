/**
 * Which paths a snapshot leaves out: built-in exclusions plus the patterns of the root `.gitignore`.
 *
 * Supported `.gitignore` subset: blank lines and `#` comments; `!` negation (the last matching line wins, and as in
 * git a file inside an ignored directory cannot be re-included); a trailing `/` for directories only; a leading or
 * inner `/` anchors the pattern to the root, otherwise it matches a name at any depth; `*`, `?`, `[abc]`/`[!abc]`,
 * `**` (leading `**\/`, trailing `/**`, inner `/**\/`); `\` escapes the next character. Not supported: `.gitignore`
 * files in subdirectories, `.git/info/exclude`, the global excludes file, and escaped trailing spaces.
 */

export interface IgnoreRule {
  pattern: string
  regex: RegExp
  negate: boolean
  directoryOnly: boolean
}

export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = []
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    let line = raw.trimEnd()
    if (line === '' || line.startsWith('#')) continue
    const negate = line.startsWith('!')
    if (negate) line = line.slice(1)
    const directoryOnly = line.endsWith('/')
    if (directoryOnly) line = line.slice(0, -1)
    const anchored = line.includes('/')
    if (line.startsWith('/')) line = line.slice(1)
    if (line === '') continue
    rules.push({ pattern: raw, regex: compile(line, anchored), negate, directoryOnly })
  }
  return rules
}

/**
 * Whether `relative` (a path below the root, no leading slash) is ignored by the rules. Only the path itself is
 * tested: callers walk top-down and never descend into an ignored directory, which is what excludes its contents.
 */
export function isIgnored(rules: readonly IgnoreRule[], relative: string, isDirectory: boolean): boolean {
  let ignored = false
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue
    if (rule.regex.test(relative)) ignored = !rule.negate
  }
  return ignored
}

const NEVER_TRACKED = new Set(['node_modules', '.git'])

/**
 * Built-in exclusions, ahead of `.gitignore`: `node_modules` and `.git` at any depth, and tabcode's own `.tabcode/`
 * directory except `.tabcode/plans` (plans are project files the user edits; the rest is internal state).
 */
export function isBuiltinExcluded(relative: string, isDirectory: boolean): boolean {
  const segments = relative.split('/')
  if (segments.some((segment) => NEVER_TRACKED.has(segment))) return true
  if (segments[0] !== '.tabcode') return false
  if (segments.length === 1) return !isDirectory
  return segments[1] !== 'plans'
}

function compile(pattern: string, anchored: boolean): RegExp {
  let source = ''
  let index = 0
  if (pattern.startsWith('**/')) {
    source += '(?:.*/)?'
    index = 3
  }
  for (; index < pattern.length; index++) {
    const char = pattern[index]!
    if (char === '\\' && index + 1 < pattern.length) {
      source += escape(pattern[++index]!)
    } else if (char === '/' && pattern.startsWith('/**/', index)) {
      source += '/(?:.*/)?'
      index += 3
    } else if (char === '/' && pattern.slice(index) === '/**') {
      source += '/.*'
      index += 2
    } else if (char === '*') {
      if (pattern[index + 1] === '*') {
        source += '.*'
        index++
      } else source += '[^/]*'
    } else if (char === '?') {
      source += '[^/]'
    } else if (char === '[') {
      const end = pattern.indexOf(']', index + 2)
      if (end === -1) source += '\\['
      else {
        const body = pattern
          .slice(index + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')
        source += `[${body}]`
        index = end
      }
    } else source += escape(char)
  }
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${source}$`)
}

function escape(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
