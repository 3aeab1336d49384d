/**
 * opencode's `Wildcard.match`: `*` is any run of characters (including `/` and newlines), `?` exactly one, every
 * other character is literal, and the match covers the whole value. A pattern ending in a space and a star also
 * matches the value without that tail, so `git commit *` covers `git commit` as well as `git commit -m x`.
 * Unlike opencode there is no backslash normalisation and no Windows case folding: paths here are always POSIX.
 */
export function matchWildcard(value: string, pattern: string): boolean {
  return compile(pattern).test(value)
}

const MAX_CACHED = 1_000
const cache = new Map<string, RegExp>()

function compile(pattern: string): RegExp {
  const cached = cache.get(pattern)
  if (cached) return cached
  let source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  if (source.endsWith(' .*')) source = source.slice(0, -3) + '( .*)?'
  const expression = new RegExp(`^${source}$`, 's')
  if (cache.size >= MAX_CACHED) cache.clear()
  cache.set(pattern, expression)
  return expression
}
