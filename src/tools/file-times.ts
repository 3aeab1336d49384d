import { normalizePath } from '../workspace/path'
import type { Workspace } from '../workspace/workspace'
import type { FileTimes } from '../core/ports'
import { ToolInputError, type ToolContext } from './tool'

/**
 * One session's record of the files it has read, by the modification time of the version it saw (opencode's
 * FileTime, kept here although upstream dropped it in April 2026: in a browser the user edits files in the same
 * tab, and the guard stops the model from overwriting changes it has not seen).
 */
export function createFileTimes(): FileTimes {
  const seen = new Map<string, number>()
  return {
    read(path, modified) {
      seen.set(normalizePath(path), modified)
    },
    assertFresh(path, modified) {
      const file = normalizePath(path)
      const read = seen.get(file)
      if (read === undefined) throw new ToolInputError(`You must read file ${file} before overwriting it. Use the read tool first`)
      if (modified > read) {
        throw new ToolInputError(
          `File ${file} has been modified since it was last read.\nLast modification: ${iso(modified)}\n` +
            `Last read: ${iso(read)}\n\nPlease read the file again before modifying it.`,
        )
      }
    },
  }
}

function iso(time: number): string {
  return new Date(time).toISOString()
}

const locks = new WeakMap<Workspace, Map<string, Promise<unknown>>>()

/**
 * Runs `task` once every earlier task on the same file of the same workspace has settled, so two edits of one file
 * in parallel tool calls cannot both read the old text and the second overwrite the first (opencode's per-file
 * semaphore).
 */
export async function withFileLock<T>(workspace: Workspace, path: string, task: () => Promise<T>): Promise<T> {
  let files = locks.get(workspace)
  if (!files) locks.set(workspace, (files = new Map()))
  const file = normalizePath(path)
  const previous = files.get(file) ?? Promise.resolve()
  const run = previous.then(task)
  const settled = run.then(
    () => undefined,
    () => undefined,
  )
  files.set(file, settled)
  try {
    return await run
  } finally {
    if (files.get(file) === settled) files.delete(file)
  }
}

/** After a tool writes a file, the version it wrote counts as read: the model knows its content. */
export async function markWritten(context: Pick<ToolContext, 'workspace' | 'files'>, path: string): Promise<void> {
  const written = await context.workspace.stat(path)
  if (written) context.files.read(path, written.modified)
}
