/**
 * The rules for a name the user types in the file tree (new file, new folder, rename), shared by the tree, which
 * says what is wrong before anything is sent, and the worker, which checks again before it writes.
 */

/** What is wrong with `name` as an entry of a directory holding `siblings` (names), or undefined when it is fine. */
export function nameProblem(name: string, siblings: readonly string[]): string | undefined {
  if (name.trim() === '') return 'A name is needed.'
  if (name !== name.trim()) return 'A name cannot start or end with a space.'
  if (name.includes('/') || name.includes('\\')) return 'A name cannot contain "/" or "\\": create the folder first.'
  if (name === '.' || name === '..') return `"${name}" is not a name a file or folder can have.`
  if (name.includes('\0')) return 'A name cannot contain a NUL character.'
  if (name.length > 255) return 'A name can be at most 255 characters long.'
  // Case-insensitive, as most filesystems a project is downloaded to are: `Readme.md` beside `README.md` would clash.
  const lower = name.toLowerCase()
  if (siblings.some((sibling) => sibling.toLowerCase() === lower)) return `"${name}" already exists here.`
  return undefined
}

/** `name` inside `directory` (absolute POSIX paths). */
export function childPath(directory: string, name: string): string {
  return directory.endsWith('/') ? `${directory}${name}` : `${directory}/${name}`
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

/** What keeps `source` from moving into `directory`, or undefined when it can. */
export function moveProblem(source: string, directory: string): string | undefined {
  const parent = source.slice(0, Math.max(source.lastIndexOf('/'), 0)) || '/'
  if (directory === parent) return `${baseName(source)} is already in that folder.`
  if (directory === source || directory.startsWith(`${source}/`)) return 'A folder cannot be moved into itself.'
  return undefined
}
