import { resolvePath } from '../path'
import type { Workspace } from '../workspace'

interface Candidate {
  /** As the user will see it: relative patterns give relative paths. */
  display: string
  path: string
}

/**
 * Expands a shell glob against the filesystem, one path segment at a time. `*`, `?` and `[...]` match within a
 * segment, `**` matches any number of directories (bash with globstar), names starting with `.` only match a
 * pattern that starts with `.`, and a backslash makes the next character literal.
 */
export async function expandGlob(pattern: string, cwd: string, fs: Pick<Workspace, 'list' | 'stat'>): Promise<string[]> {
  const absolute = pattern.startsWith('/')
  const directoryOnly = pattern.endsWith('/')
  const segments = pattern.split('/').filter((segment) => segment !== '')
  let candidates: Candidate[] = [{ display: absolute ? '/' : '', path: absolute ? '/' : cwd }]
  let verified = true
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1
    if (segment === '**') {
      candidates = await withDescendants(candidates, fs, last)
      verified = true
    } else if (hasGlob(segment)) {
      const matcher = segmentRegExp(segment)
      const hidden = segment.startsWith('.') || segment.startsWith('\\.')
      const next: Candidate[] = []
      for (const candidate of candidates) {
        for (const entry of await listOrEmpty(fs, candidate.path)) {
          if (entry.name.startsWith('.') && !hidden) continue
          if (!matcher.test(entry.name)) continue
          if ((!last || directoryOnly) && entry.type !== 'directory') continue
          next.push({ display: join(candidate.display, entry.name), path: entry.path })
        }
      }
      candidates = next
      verified = true
    } else {
      const name = segment.replace(/\\(.)/g, '$1')
      candidates = candidates.map((candidate) => ({
        display: join(candidate.display, name),
        path: resolvePath(candidate.path, name),
      }))
      verified = false
    }
  }
  if (!verified) {
    const existing: Candidate[] = []
    for (const candidate of candidates) {
      const stat = await fs.stat(candidate.path)
      if (stat && (!directoryOnly || stat.type === 'directory')) existing.push(candidate)
    }
    candidates = existing
  }
  return candidates
    .map((candidate) => (directoryOnly ? `${candidate.display}/` : candidate.display))
    .filter((display) => display !== '' && display !== '/')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

export function hasGlob(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === '\\') index++
    else if (char === '*' || char === '?' || char === '[') return true
  }
  return false
}

/** A glob segment as an anchored regular expression. */
export function segmentRegExp(segment: string, flags = ''): RegExp {
  return new RegExp(`^${globSource(segment, false)}$`, flags)
}

/**
 * A glob as regular expression source (unanchored). `acrossSlashes`: `*` and `?` also match `/`, as in `find
 * -path` and `${NAME%pattern}`, where the pattern is not matched segment by segment.
 */
export function globSource(pattern: string, acrossSlashes: boolean): string {
  const any = acrossSlashes ? '[^]' : '[^/]'
  let source = ''
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!
    if (char === '\\' && index + 1 < pattern.length) source += escapeRegExp(pattern[++index]!)
    else if (char === '*') source += `${any}*`
    else if (char === '?') source += any
    else if (char === '[') {
      const close = pattern.indexOf(']', index + 2)
      if (close === -1) source += '\\['
      else {
        let body = pattern.slice(index + 1, close)
        const negated = body.startsWith('!') || body.startsWith('^')
        if (negated) body = body.slice(1)
        source += `[${negated ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/\[:(\w+):\]/g, (_, name: string) => POSIX_CLASSES[name] ?? '')}]`
        index = close
      }
    } else source += escapeRegExp(char)
  }
  return source
}

export const POSIX_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: 'a-zA-Z0-9_',
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

function join(display: string, name: string): string {
  if (display === '') return name
  return display.endsWith('/') ? display + name : `${display}/${name}`
}

async function listOrEmpty(fs: Pick<Workspace, 'list'>, path: string) {
  return fs.list(path).catch(() => [])
}

/** The candidates and the directories under them; files too when `**` ends the pattern. */
async function withDescendants(candidates: Candidate[], fs: Pick<Workspace, 'list'>, files: boolean): Promise<Candidate[]> {
  const result: Candidate[] = []
  const stack = [...candidates].reverse()
  while (stack.length > 0) {
    const candidate = stack.pop()!
    result.push(candidate)
    for (const child of (await listOrEmpty(fs, candidate.path)).reverse()) {
      if (child.name.startsWith('.')) continue
      const next = { display: join(candidate.display, child.name), path: child.path }
      if (child.type === 'directory') stack.push(next)
      else if (files) result.push(next)
    }
  }
  return result
}
