import { z } from 'zod'
import { matchesGlob } from '../workspace/glob'
import { relativePath, resolvePath } from '../workspace/path'
import type { Workspace } from '../workspace/workspace'
import { assertExternalDirectory } from './external-directory'
import { defineTool } from './tool'

/**
 * What the tree leaves out unless asked (opencode's list, as given to ripgrep). An entry ending in `/` skips a
 * directory of that name at any depth; the others skip any file or directory whose name starts with it.
 */
export const LIST_IGNORE_PATTERNS = [
  'node_modules/',
  '__pycache__/',
  '.git/',
  'dist/',
  'build/',
  'target/',
  'vendor/',
  'bin/',
  'obj/',
  '.idea/',
  '.vscode/',
  '.zig-cache/',
  'zig-out',
  '.coverage',
  'coverage/',
  'tmp/',
  'temp/',
  '.cache/',
  'cache/',
  'logs/',
  '.venv/',
  'venv/',
  'env/',
]

/** The most files one tree shows. */
export const LIST_LIMIT = 100

const IGNORED_DIRECTORIES = new Set(LIST_IGNORE_PATTERNS.filter((pattern) => pattern.endsWith('/')).map((pattern) => pattern.slice(0, -1)))
const IGNORED_PREFIXES = LIST_IGNORE_PATTERNS.filter((pattern) => !pattern.endsWith('/'))

export const listTool = defineTool({
  id: 'list',
  description: [
    'Lists files and directories as a tree, starting at the given path (the project directory by default).',
    `Shows at most ${LIST_LIMIT} files. Common dependency, build and cache folders (node_modules, .git, dist, build,`,
    'coverage, …) are left out; add glob patterns to leave out more with the ignore parameter.',
    'Prefer the glob and grep tools when you know which files or contents you are looking for.',
  ].join(' '),
  parameters: z.object({
    path: z.string().optional().describe('The directory to list (absolute, or relative to the project directory). Omit it for the project directory.'),
    ignore: z.array(z.string()).optional().describe('List of glob patterns to ignore'),
  }),
  async execute(input, context) {
    const workspace = context.workspace
    const search = resolvePath(workspace.root, input.path ?? '.')
    await assertExternalDirectory(context, search, { kind: 'directory' })
    await context.ask({ permission: 'list', patterns: [search], always: ['*'], metadata: { path: search } })
    const info = await workspace.stat(search)
    if (!info) throw new Error(`Directory not found: ${search}`)
    if (info.type !== 'directory') throw new Error(`${search} is not a directory`)

    const { files, truncated } = await collectFiles(workspace, search, input.ignore ?? [])
    const heading = search === '/' ? '/' : `${search}/`
    const output = `${heading}\n${renderTree(files)}` + (truncated ? `\n(Showing the first ${LIST_LIMIT} files. List a subdirectory, or ignore more, to see the rest.)\n` : '')
    return {
      title: relativePath(workspace.root, search),
      output,
      metadata: { count: files.length, truncated },
    }
  },
})

/**
 * Files under `root` as paths relative to it, breadth first, so a cut-off tree still shows every top-level folder.
 * Ignored directories are never entered.
 */
async function collectFiles(workspace: Workspace, root: string, ignore: string[]): Promise<{ files: string[]; truncated: boolean }> {
  const patterns = ignore.map((pattern) => pattern.replace(/\/+$/, '')).filter(Boolean)
  const ignored = (relative: string, name: string, directory: boolean) =>
    (directory && IGNORED_DIRECTORIES.has(name)) ||
    IGNORED_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
    patterns.some((pattern) => matchesGlob(pattern, relative))
  const files: string[] = []
  const queue = ['']
  for (let directory = queue.shift(); directory !== undefined; directory = queue.shift()) {
    const entries = await workspace.list(directory === '' ? root : `${root === '/' ? '' : root}/${directory}`)
    for (const entry of entries) {
      const relative = directory === '' ? entry.name : `${directory}/${entry.name}`
      const isDirectory = entry.type === 'directory'
      if (ignored(relative, entry.name, isDirectory)) continue
      if (isDirectory) {
        queue.push(relative)
        continue
      }
      if (files.length === LIST_LIMIT) return { files, truncated: true }
      files.push(relative)
    }
  }
  return { files, truncated: false }
}

function parentOf(relative: string): string {
  const index = relative.lastIndexOf('/')
  return index === -1 ? '.' : relative.slice(0, index)
}

/** opencode's tree: two spaces per level, subdirectories (with a trailing `/`) before files, each sorted by name. */
export function renderTree(files: string[]): string {
  const directories = new Set<string>(['.'])
  const filesByDirectory = new Map<string, string[]>()
  for (const file of files) {
    const directory = parentOf(file)
    for (let current = directory; current !== '.'; current = parentOf(current)) directories.add(current)
    const names = filesByDirectory.get(directory) ?? []
    names.push(file.slice(directory === '.' ? 0 : directory.length + 1))
    filesByDirectory.set(directory, names)
  }
  const render = (directory: string, depth: number): string => {
    let output = depth > 0 ? `${'  '.repeat(depth)}${directory.slice(directory.lastIndexOf('/') + 1)}/\n` : ''
    const children = [...directories].filter((child) => child !== '.' && parentOf(child) === directory).sort()
    for (const child of children) output += render(child, depth + 1)
    for (const name of (filesByDirectory.get(directory) ?? []).sort()) output += `${'  '.repeat(depth + 1)}${name}\n`
    return output
  }
  return render('.', 0)
}
