import type { FileSystemTree } from '@webcontainer/api'
import { globToRegExp } from '../glob'
import { basename, dirname, isInside, normalizePath, relativePath, resolvePath } from '../path'
import { WORKSPACE_ROOT, WorkspaceError, type FileStat, type GrepMatch, type Workspace, type WorkspaceChange } from '../workspace'
import { toWorkspaceError, type ContainerDirEntry, type ContainerLike, type ContainerWatcher, type MountableContainer } from './container'
import { execute } from './exec'

/** A workspace that also owns a file watcher in the container, stopped by `dispose`. */
export interface WebContainerWorkspace extends Workspace {
  dispose(): void
}

/** Walked only when the pattern, include or start directory names them: huge, and rarely what a search is after. */
const SKIPPED_DIRECTORIES = ['node_modules', '.git']

/** Files read at once by grep; each read is a round trip to the StackBlitz frame. */
const GREP_BATCH = 16

/**
 * The `Workspace` over a booted WebContainer: files through `container.fs` (whose paths are relative to its working
 * directory, which is mapped to `root`), commands through `jsh -c`. WebContainer's fs has no `stat`, so sizes come from
 * reading the file and modification times from this adapter's own writes and the container's file watcher; files
 * nobody touched since the workspace was created count as older than any that were.
 *
 * `watch` reports the adapter's own changes at once and, through the container's watcher, changes made by commands
 * (outside node_modules and .git). An own write is usually heard twice (directly and echoed by the watcher), so
 * listeners must treat a change as "look at this path again", not as a count.
 */
export function createWebContainerWorkspace(
  container: ContainerLike,
  options: { root?: string } = {},
): WebContainerWorkspace {
  const root = normalizePath(options.root ?? WORKSPACE_ROOT)
  const fs = container.fs
  const created = Date.now()
  const modifiedTimes = new Map<string, number>()
  const listeners = new Set<(change: WorkspaceChange) => void>()

  function absolute(path: string): string {
    const resolved = resolvePath(root, path)
    if (!isInside(root, resolved)) {
      throw new WorkspaceError('invalid-path', path, `${path} is outside the project folder ${root}; WebContainer only reaches files inside it.`)
    }
    return resolved
  }

  /** The SDK's path for an absolute workspace path (`.` for the root). */
  function inContainer(path: string): string {
    return relativePath(root, path)
  }

  function modified(path: string): number {
    return modifiedTimes.get(path) ?? created
  }

  function touch(path: string) {
    modifiedTimes.set(path, Date.now())
  }

  function emit(change: WorkspaceChange) {
    for (const listener of listeners) listener(change)
  }

  async function describe(path: string, entry: ContainerDirEntry): Promise<FileStat> {
    const name = basename(path)
    if (entry.isDirectory()) return { path, name, type: 'directory', size: 0, modified: modified(path) }
    // Symlinks count as files: reading one follows it.
    const size = await fs.readFile(inContainer(path)).then((bytes) => bytes.byteLength, () => 0)
    return { path, name, type: 'file', size, modified: modified(path) }
  }

  async function entriesOf(path: string): Promise<ContainerDirEntry[]> {
    const entries = await fs.readdir(inContainer(path), { withFileTypes: true }).catch((error: unknown) => {
      throw toWorkspaceError(error, path)
    })
    return [...entries].sort((a, b) => compare(a.name, b.name))
  }

  /** The directory entry at an absolute path, without reading the file; undefined when nothing is there. */
  async function entryAt(target: string): Promise<ContainerDirEntry | undefined> {
    try {
      const entries = await entriesOf(dirname(target))
      return entries.find((candidate) => candidate.name === basename(target))
    } catch (error) {
      if (error instanceof WorkspaceError && (error.code === 'not-found' || error.code === 'not-directory')) return undefined
      throw error
    }
  }

  async function stat(path: string): Promise<FileStat | undefined> {
    const target = absolute(path)
    if (target === root) return { path: root, name: basename(root), type: 'directory', size: 0, modified: modified(root) }
    const entry = await entryAt(target)
    return entry ? describe(target, entry) : undefined
  }

  /** Every file under `directory`; unreadable directories are skipped rather than failing the search. */
  async function filesUnder(directory: string, mentioned: string): Promise<string[]> {
    const entries = await entriesOf(directory).catch(() => [])
    const nested = await Promise.all(
      entries.map(async (entry) => {
        const path = `${directory === '/' ? '' : directory}/${entry.name}`
        if (!entry.isDirectory()) return [path]
        if (SKIPPED_DIRECTORIES.includes(entry.name) && !mentioned.split(/[/\s{},]/).includes(entry.name)) return []
        return filesUnder(path, mentioned)
      }),
    )
    return nested.flat()
  }

  function newestFirst<T extends { path: string }>(items: T[], time: (item: T) => number): T[] {
    return items.sort((a, b) => time(b) - time(a) || compare(a.path, b.path))
  }

  async function readFile(path: string): Promise<Uint8Array> {
    const target = absolute(path)
    try {
      return await fs.readFile(inContainer(target))
    } catch (error) {
      throw toWorkspaceError(error, target)
    }
  }

  // Changes made by commands. An install rewrites thousands of files under node_modules; those only update times.
  function onContainerChange(event: 'rename' | 'change', filename: string | Uint8Array) {
    const name = typeof filename === 'string' ? filename : new TextDecoder().decode(filename)
    const path = normalizePath(`${root}/${name}`)
    touch(path)
    if (listeners.size === 0 || relativePath(root, path).split('/').some((segment) => SKIPPED_DIRECTORIES.includes(segment))) return
    if (event === 'change') return emit({ type: 'write', path })
    // A rename is a creation or a deletion; only the file system knows which.
    void entryAt(path).then(
      (entry) => emit(entry ? { type: entry.isDirectory() ? 'mkdir' : 'write', path } : { type: 'remove', path }),
      () => {},
    )
  }

  let watcher: ContainerWatcher | undefined
  try {
    watcher = fs.watch?.('.', { recursive: true }, onContainerChange)
  } catch {
    // No native watcher: changes made by commands go unseen, the adapter's own writes are still reported.
  }

  return {
    backend: 'webcontainer',
    root,
    readFile,

    async readText(path) {
      // `ignoreBOM` keeps a byte order mark as U+FEFF, so an edit writes it back.
      return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await readFile(path))
    },

    async writeFile(path, content) {
      const target = absolute(path)
      if (target === root) throw new WorkspaceError('is-directory', target, `${target} is a directory.`)
      try {
        if (dirname(target) !== root) await fs.mkdir(inContainer(dirname(target)), { recursive: true })
        await fs.writeFile(inContainer(target), content)
      } catch (error) {
        throw toWorkspaceError(error, target)
      }
      touch(target)
      emit({ type: 'write', path: target })
    },

    async list(path) {
      const target = absolute(path)
      const entries = await entriesOf(target)
      return Promise.all(entries.map((entry) => describe(normalizePath(`${target}/${entry.name}`), entry)))
    },

    stat,

    async remove(path, options = {}) {
      const target = absolute(path)
      if (target === root) throw new WorkspaceError('invalid-path', target, 'The project folder itself cannot be removed.')
      const entry = await entryAt(target)
      if (!entry) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
      if (entry.isDirectory() && !options.recursive && (await entriesOf(target)).length > 0) {
        throw new WorkspaceError('not-empty', target, `${target} is not empty; remove it recursively to delete its contents too.`)
      }
      try {
        await fs.rm(inContainer(target), { recursive: entry.isDirectory() })
      } catch (error) {
        throw toWorkspaceError(error, target)
      }
      for (const known of [...modifiedTimes.keys()]) if (isInside(target, known)) modifiedTimes.delete(known)
      emit({ type: 'remove', path: target })
    },

    async mkdir(path, options = {}) {
      const target = absolute(path)
      try {
        if (options.recursive) await fs.mkdir(inContainer(target), { recursive: true })
        else await fs.mkdir(inContainer(target))
      } catch (error) {
        throw toWorkspaceError(error, target)
      }
      touch(target)
      emit({ type: 'mkdir', path: target })
    },

    async glob(pattern, options = {}) {
      const cwd = absolute(options.cwd ?? root)
      const relative = pattern.startsWith('/') ? relativePath(cwd, pattern) : pattern.replace(/^(\.\/)+/, '')
      const matcher = globToRegExp(relative)
      const files = (await filesUnder(cwd, `${relative} ${cwd}`)).filter((file) => matcher.test(relativePath(cwd, file)))
      const sorted = newestFirst(files.map((file) => ({ path: file })), (file) => modified(file.path)).map((file) => file.path)
      return options.limit === undefined ? sorted : sorted.slice(0, options.limit)
    },

    async grep(pattern, options = {}) {
      const expression = new RegExp(pattern)
      const target = absolute(options.path ?? root)
      const entry = target === root ? undefined : await entryAt(target)
      if (target !== root && !entry) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
      const single = entry !== undefined && !entry.isDirectory()
      const include = options.include ? globToRegExp(options.include) : undefined
      const candidates = single ? [target] : await filesUnder(target, `${options.include ?? ''} ${target}`)
      const files = candidates.filter((file) => !include || include.test(single ? basename(file) : relativePath(target, file)))
      const matches: GrepMatch[] = []
      const decoder = new TextDecoder()
      for (let start = 0; start < files.length; start += GREP_BATCH) {
        const batch = files.slice(start, start + GREP_BATCH)
        const contents = await Promise.all(batch.map((file) => fs.readFile(inContainer(file)).catch(() => undefined)))
        batch.forEach((file, index) => {
          const bytes = contents[index]
          if (!bytes || looksBinary(bytes)) return
          decoder
            .decode(bytes)
            .split(/\r?\n/)
            .forEach((text, line) => {
              if (expression.test(text)) matches.push({ path: file, line: line + 1, text, modified: modified(file) })
            })
        })
      }
      const sorted = newestFirst(matches, (match) => match.modified)
      return options.limit === undefined ? sorted : sorted.slice(0, options.limit)
    },

    exec: (command, options) => execute(container, command, options, (cwd) => inContainer(absolute(cwd ?? root))),

    watch(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },

    dispose() {
      watcher?.close()
      listeners.clear()
    },
  }
}

/**
 * Writes the project's persisted files into a fresh container (WebContainer's file system starts empty at every boot).
 * Paths are relative to the project root or absolute under `root`.
 */
export async function mountProjectFiles(
  container: MountableContainer,
  files: readonly { path: string; data: Uint8Array | string }[],
  options: { root?: string } = {},
): Promise<void> {
  const root = normalizePath(options.root ?? WORKSPACE_ROOT)
  const tree: FileSystemTree = {}
  for (const file of files) {
    const target = resolvePath(root, file.path)
    if (!isInside(root, target) || target === root) {
      throw new WorkspaceError('invalid-path', file.path, `${file.path} is not a file inside the project folder ${root}.`)
    }
    const segments = relativePath(root, target).split('/')
    const name = segments.pop()!
    let directory = tree
    for (const segment of segments) {
      const node = (directory[segment] ??= { directory: {} })
      if (!('directory' in node)) throw new WorkspaceError('not-directory', file.path, `${file.path} is inside ${segment}, which is a file.`)
      directory = node.directory
    }
    const existing = directory[name]
    if (existing && 'directory' in existing) {
      throw new WorkspaceError('is-directory', file.path, `${file.path} is both a file and a folder in this project.`)
    }
    directory[name] = { file: { contents: file.data } }
  }
  await container.mount(tree)
}

/** A NUL byte in the first 8 KB, as git and ripgrep decide. */
function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0)
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
