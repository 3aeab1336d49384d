import { describe, expect, it } from 'vitest'
import type { FileStat, Workspace } from '../core/workspace'
import { createFileSearch } from './file-search'

function fakeWorkspace(paths: string[]): Workspace {
  const list = async (directory: string): Promise<FileStat[]> => {
    const children = new Map<string, FileStat>()
    for (const path of paths) {
      if (!path.startsWith(`${directory}/`)) continue
      const [name, ...rest] = path.slice(directory.length + 1).split('/')
      const type = rest.length ? 'directory' : 'file'
      children.set(name!, { path: `${directory}/${name}`, name: name!, type, size: 0, modified: 0 })
    }
    return [...children.values()]
  }
  return { list } as unknown as Workspace
}

describe('searchProjectFiles', () => {
  it('ranks the file whose name matches the letters typed first, and offers folders', async () => {
    const search = createFileSearch()
    const workspace = fakeWorkspace(['/workspace/src/main.ts', '/workspace/src/domain/model.ts', '/workspace/README.md'])
    const found = await search('p', workspace, 'main', 10)
    expect(found[0]).toEqual({ type: 'file', path: 'src/main.ts' })
    expect(await search('p', workspace, 'src', 10)).toContainEqual({ type: 'directory', path: 'src/' })
  })

  it('lists the shallowest paths before anything is typed', async () => {
    const search = createFileSearch()
    const workspace = fakeWorkspace(['/workspace/a/b/c.ts', '/workspace/z.ts'])
    expect((await search('p', workspace, '', 2)).map((match) => match.path)).toEqual(['a/', 'z.ts'])
  })

  it('skips node_modules and .git, and answers fast over 10,000 files', async () => {
    const paths = Array.from({ length: 10_000 }, (_, index) => `/workspace/packages/p${index % 100}/src/file${index}.ts`)
    paths.push('/workspace/node_modules/main/index.js', '/workspace/.git/HEAD')
    const search = createFileSearch()
    const workspace = fakeWorkspace(paths)
    await search('p', workspace, 'x', 1)
    const started = performance.now()
    const found = await search('p', workspace, 'file9999', 5)
    expect(performance.now() - started).toBeLessThan(200)
    expect(found[0]?.path).toBe('packages/p99/src/file9999.ts')
    const all = await search('p', workspace, 'index', 50)
    expect(all.some((match) => match.path.includes('node_modules') || match.path.includes('.git'))).toBe(false)
  })
})
