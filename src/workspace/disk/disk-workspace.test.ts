import { describe, expect, it } from 'vitest'
import type { WorkspaceChange } from '../workspace'
import { openDiskWorkspace } from './disk-workspace'
import { MemoryDirectory, MemoryFile } from './testing/memory-directory'

function clock(start = 1000) {
  let time = start
  return () => (time += 10)
}

async function open(files: Record<string, string>) {
  const folder = MemoryDirectory.from(files, { name: 'app', now: clock() })
  const changes: WorkspaceChange[] = []
  const outside: string[] = []
  const workspace = await openDiskWorkspace({
    handle: folder,
    observe: false, scanReuseMs: 0,
    onChange: (change) => changes.push(change),
    onOutsideChange: (changes) => outside.push(...changes.map((change) => change.path)),
  })
  return { folder, workspace, changes, outside }
}

async function fileIn(folder: MemoryDirectory, path: string): Promise<MemoryFile> {
  const segments = path.split('/')
  let directory = folder
  for (const segment of segments.slice(0, -1)) directory = await directory.getDirectoryHandle(segment)
  return directory.getFileHandle(segments.at(-1)!)
}

describe('DiskWorkspace', () => {
  it('leaves node_modules, .git and what .gitignore names out of listings and searches, but reads them by path', async () => {
    const { folder, workspace } = await open({
      '.gitignore': 'dist/\n*.log\n',
      'src/a.ts': 'needle\n',
      'dist/out.js': 'needle\n',
      'debug.log': 'needle\n',
      'node_modules/x/index.js': 'needle\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
    })
    expect((await workspace.list('/workspace')).map((entry) => entry.name)).toEqual(['.gitignore', 'src'])
    expect(await workspace.glob('**/*')).toEqual(expect.arrayContaining(['/workspace/src/a.ts']))
    expect(await workspace.glob('**/*.js')).toEqual([])
    expect((await workspace.grep('needle')).map((match) => match.path)).toEqual(['/workspace/src/a.ts'])
    expect(Object.keys(await workspace.manifest()).sort()).toEqual(['/workspace/.gitignore', '/workspace/src/a.ts'])
    // Reachable by name, and left as they are on disk.
    expect(await workspace.readText('.git/HEAD')).toBe('ref: refs/heads/main\n')
    expect((await workspace.list('node_modules/x')).map((entry) => entry.name)).toEqual(['index.js'])
    expect(folder.text('dist/out.js')).toBe('needle\n')
  })

  it('writes to the folder and reports the time the file has on disk', async () => {
    const { folder, workspace, changes } = await open({})
    await workspace.writeFile('src/new.ts', 'export {}\n')
    expect(folder.text('src/new.ts')).toBe('export {}\n')
    const stat = await workspace.stat('src/new.ts')
    expect(stat?.modified).toBe((await fileIn(folder, 'src/new.ts')).lastModified)
    expect(changes).toEqual([
      { type: 'mkdir', path: '/workspace/src' },
      { type: 'write', path: '/workspace/src/new.ts' },
    ])
  })

  it('notices files changed, added and removed by another program on the next refresh', async () => {
    const { folder, workspace, changes, outside } = await open({ 'a.txt': 'one', 'gone/b.txt': 'b' })
    folder.put('a.txt', 'two')
    folder.put('added.txt', 'new')
    await folder.removeEntry('gone', { recursive: true })
    await workspace.refresh()
    expect(changes).toEqual(
      expect.arrayContaining([
        { type: 'write', path: '/workspace/a.txt' },
        { type: 'write', path: '/workspace/added.txt' },
        { type: 'remove', path: '/workspace/gone' },
      ]),
    )
    expect(changes.filter((change) => change.type === 'remove')).toEqual([{ type: 'remove', path: '/workspace/gone' }])
    expect(outside.sort()).toEqual(['/workspace/a.txt', '/workspace/added.txt', '/workspace/gone/b.txt'])
    expect((await workspace.list('/workspace')).map((entry) => entry.name)).toEqual(['a.txt', 'added.txt'])
    expect(await workspace.grep('two')).toHaveLength(1)
  })

  it('hashes a file for a manifest once, until its size or time change', async () => {
    const { folder, workspace } = await open({ 'a.txt': 'one', 'b.txt': 'bee' })
    const first = await workspace.manifest()
    const a = await fileIn(folder, 'a.txt')
    const b = await fileIn(folder, 'b.txt')
    const opened = a.opened + b.opened
    expect(await workspace.manifest()).toEqual(first)
    expect(a.opened + b.opened).toBe(opened)
    folder.put('a.txt', 'changed')
    await workspace.refresh()
    const second = await workspace.manifest()
    expect(second['/workspace/a.txt']).not.toBe(first['/workspace/a.txt'])
    expect(second['/workspace/b.txt']).toBe(first['/workspace/b.txt'])
  })

  it('follows a changed .gitignore', async () => {
    const { folder, workspace } = await open({ 'build/x.js': 'x', 'src/a.ts': 'a' })
    expect(await workspace.glob('**/*.js')).toEqual(['/workspace/build/x.js'])
    folder.put('.gitignore', 'build/\n')
    await workspace.refresh()
    expect(await workspace.glob('**/*.js')).toEqual([])
    await workspace.writeFile('.gitignore', '')
    expect(await workspace.glob('**/*.js')).toEqual(['/workspace/build/x.js'])
  })

  it('says how to get a withdrawn permission back', async () => {
    const { folder, workspace } = await open({ 'a.txt': 'one' })
    folder.permission = 'prompt'
    await expect(workspace.readText('a.txt')).rejects.toThrow('No permission to the folder app any more: reconnect to it ("Reconnect to app").')
  })

  it('keeps paths outside the folder (a command scratch file) in memory, never in the folder', async () => {
    const { folder, workspace } = await open({})
    const result = await workspace.exec('echo hi > /tmp/x && cat /tmp/x && echo done > out.txt', {})
    expect(result.output).toBe('hi\n')
    expect(folder.text('out.txt')).toBe('done\n')
    expect(folder.text('tmp/x')).toBeUndefined()
  })
})
