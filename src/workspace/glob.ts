/**
 * File globs as tools and users write them: `*` and `?` within one path segment, `**` across segments, `{a,b}`
 * alternatives and `[abc]` classes. A pattern without a `/` matches a file name at any depth (`*.ts`), as ripgrep's
 * `--glob` does.
 */
export function globToRegExp(pattern: string): RegExp {
  const anyDepth = !pattern.includes('/')
  let source = ''
  let braces = 0
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!
    if (char === '*') {
      if (pattern[index + 1] === '*') {
        const slashAfter = pattern[index + 2] === '/'
        source += slashAfter ? '(?:.*/)?' : '.*'
        index += slashAfter ? 2 : 1
      } else {
        source += '[^/]*'
      }
    } else if (char === '?') source += '[^/]'
    else if (char === '{') {
      braces++
      source += '(?:'
    } else if (char === '}' && braces > 0) {
      braces--
      source += ')'
    } else if (char === ',' && braces > 0) source += '|'
    else if (char === '[') {
      const end = pattern.indexOf(']', index + 1)
      if (end === -1) source += '\\['
      else {
        const body = pattern.slice(index + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')
        source += `[${body}]`
        index = end
      }
    } else source += char.replace(/[.+^$()|\\\]]/g, '\\$&')
  }
  return new RegExp(`^${anyDepth ? '(?:.*/)?' : ''}${source}$`)
}

/** Whether a path relative to the search root matches the glob. */
export function matchesGlob(pattern: string, relative: string): boolean {
  return globToRegExp(pattern).test(relative)
}
