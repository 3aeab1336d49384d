/** POSIX path helpers for workspace paths (always absolute, `/`-separated, no trailing slash except the root). */

export function normalizePath(path: string): string {
  const absolute = path.startsWith('/')
  const parts: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') parts.pop()
    else parts.push(segment)
  }
  return (absolute ? '/' : '') + parts.join('/') || (absolute ? '/' : '.')
}

/** `path` made absolute against `base` (a relative path is taken from `base`, an absolute one is kept). */
export function resolvePath(base: string, path: string): string {
  return normalizePath(path.startsWith('/') ? path : `${base}/${path}`)
}

export function dirname(path: string): string {
  const normal = normalizePath(path)
  const index = normal.lastIndexOf('/')
  return index <= 0 ? '/' : normal.slice(0, index)
}

export function basename(path: string): string {
  const normal = normalizePath(path)
  return normal.slice(normal.lastIndexOf('/') + 1)
}

/** True when `path` is `directory` or inside it. */
export function isInside(directory: string, path: string): boolean {
  const parent = normalizePath(directory)
  const child = normalizePath(path)
  return child === parent || child.startsWith(parent === '/' ? '/' : `${parent}/`)
}

/** `path` relative to `from` (`.` for the same path); `..` segments when it lies outside. */
export function relativePath(from: string, path: string): string {
  const a = normalizePath(from).split('/').filter(Boolean)
  const b = normalizePath(path).split('/').filter(Boolean)
  let common = 0
  while (common < a.length && common < b.length && a[common] === b[common]) common++
  const up = a.slice(common).map(() => '..')
  return [...up, ...b.slice(common)].join('/') || '.'
}
