import { ProjectCloneError, ProjectTooLargeError, ProjectTooManyFilesError } from '../import-error'
import { IMPORT_LIMITS, type ImportedFile } from '../import-files'
import { createMemoryStorage } from '../local/memory-storage'
import { StoredWorkspace } from '../local/stored-workspace'
import type { GitRemotes } from '../runtime/program'
import { WORKSPACE_ROOT } from '../workspace'

/**
 * A repository cloned by URL, as a new project's files (its `.git` included, so the project's git knows its remote):
 * `git clone` into a workspace that lives only in memory, so a failed clone leaves nothing stored. The same limits
 * as an imported folder apply.
 */
export async function cloneFiles(url: string, remotes: GitRemotes, signal: AbortSignal = new AbortController().signal): Promise<ImportedFile[]> {
  const workspace = new StoredWorkspace({ storage: createMemoryStorage(), entries: [] })
  const { runGit } = await import('./index')
  let stderr = ''
  const result = await runGit({
    argv: ['git', 'clone', '--quiet', url, '.'],
    cwd: WORKSPACE_ROOT,
    env: {},
    stdin: '',
    files: workspace,
    signal,
    onStdout: () => {},
    onStderr: (chunk) => (stderr += chunk),
    remotes,
  })
  if (result.exitCode !== 0) {
    const reason = stderr.split('\n').find((line) => line.startsWith('fatal: '))?.slice('fatal: '.length) ?? (stderr.trim() || `git exited with ${result.exitCode}`)
    throw new ProjectCloneError(url, reason)
  }
  const files: ImportedFile[] = []
  let bytes = 0
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await workspace.list(directory)) {
      const path = `${directory}/${entry.name}`
      if (entry.type === 'directory') await walk(path)
      else {
        const data = await workspace.readFile(path)
        bytes += data.length
        if (files.length >= IMPORT_LIMITS.files) throw new ProjectTooManyFilesError(IMPORT_LIMITS.files)
        if (bytes > IMPORT_LIMITS.bytes) throw new ProjectTooLargeError(IMPORT_LIMITS.bytes)
        files.push({ path: path.slice(WORKSPACE_ROOT.length + 1), data })
      }
    }
  }
  await walk(WORKSPACE_ROOT)
  return files
}
