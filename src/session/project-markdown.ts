import type { FileStat, Workspace } from '../workspace/workspace'

/** Every `.md` file under `directory`, at any depth; none when it is not a directory (the project has no such folder). */
export async function markdownFiles(workspace: Workspace, directory: string): Promise<FileStat[]> {
  const stat = await workspace.stat(directory).catch(() => undefined)
  if (stat?.type !== 'directory') return []
  const found: FileStat[] = []
  for (const entry of await workspace.list(directory)) {
    if (entry.type === 'directory') found.push(...(await markdownFiles(workspace, entry.path)))
    else if (/\.md$/i.test(entry.name)) found.push(entry)
  }
  return found
}
