import type { FileStat, Workspace } from '../workspace/workspace'

/**
 * Every `.md` file under `directory`, at any depth, in name order; none when it is not a directory (the project has no
 * such folder). Name order, not the backend's listing order (a folder on disk lists as the OS does): the agents found
 * here are listed in the task tool's description, which must stay the same bytes for the prompt cache.
 */
export async function markdownFiles(workspace: Workspace, directory: string): Promise<FileStat[]> {
  const stat = await workspace.stat(directory).catch(() => undefined)
  if (stat?.type !== 'directory') return []
  const found: FileStat[] = []
  const entries = (await workspace.list(directory)).slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    if (entry.type === 'directory') found.push(...(await markdownFiles(workspace, entry.path)))
    else if (/\.md$/i.test(entry.name)) found.push(entry)
  }
  return found
}
