import { afterEach, describe, expect, it } from 'vitest'
import { TabcodeDatabase } from '../store/database'
import { createDexieStorage } from '../store/dexie-storage'
import type { WorkspaceChange } from '../workspace/workspace'
import { hashContent } from '../workspace/local/hash'
import { createLocalWorkspace as createWorkspace, type LocalWorkspaceOptions } from '../workspace/local/local-workspace'

/** The local workspace as the worker wires it: over the Dexie storage of one project. */
const createLocalWorkspace = ({ db, projectID, ...options }: { db: TabcodeDatabase; projectID: string } & Omit<LocalWorkspaceOptions, 'storage'>) =>
  createWorkspace({ storage: createDexieStorage(db, projectID), ...options })

const projectID = 'prj_test1'
const databases: TabcodeDatabase[] = []

function openDatabase(name = `workspace-${crypto.randomUUID()}`) {
  const db = new TabcodeDatabase(name)
  databases.push(db)
  return db
}

afterEach(async () => {
  for (const db of databases.splice(0)) await db.delete()
})

describe('local workspace', () => {
  it('keeps files across a reload of the same database', async () => {
    const db = openDatabase()
    const first = await createLocalWorkspace({ db, projectID, now: () => 7 })
    await first.writeFile('src/a.ts', 'export {}\n')
    await first.mkdir('empty/dir', { recursive: true })
    await first.writeFile('gone.txt', 'x')
    await first.remove('gone.txt')

    const reloaded = await createLocalWorkspace({ db, projectID })
    expect(await reloaded.readText('/workspace/src/a.ts')).toBe('export {}\n')
    expect(await reloaded.stat('src/a.ts')).toMatchObject({ size: 10, modified: 7 })
    expect(await reloaded.stat('empty/dir')).toMatchObject({ type: 'directory' })
    expect(await reloaded.stat('gone.txt')).toBeUndefined()
    expect((await reloaded.list('/workspace')).map((entry) => entry.name)).toEqual(['empty', 'src'])
  })

  it('stores absolute paths and content hashes in the files table', async () => {
    const db = openDatabase()
    const workspace = await createLocalWorkspace({ db, projectID, now: () => 1 })
    await workspace.writeFile('src/a.ts', 'abc')
    const rows = await db.files.where('projectID').equals(projectID).sortBy('path')
    expect(rows).toEqual([
      { type: 'directory', projectID, path: '/workspace/src', modified: 1 },
      { type: 'file', projectID, path: '/workspace/src/a.ts', hash: await hashContent(new TextEncoder().encode('abc')), size: 3, modified: 1 },
    ])
  })

  it('stores one blob for identical files', async () => {
    const db = openDatabase()
    const workspace = await createLocalWorkspace({ db, projectID })
    await workspace.writeFile('a.txt', 'same')
    await workspace.writeFile('b/c.txt', 'same')
    await workspace.writeFile('d.txt', 'other')
    await workspace.writeFile('/tmp/scratch.txt', 'other')
    expect(await db.blobs.count()).toBe(2)
    expect(await workspace.manifest()).toEqual({
      '/workspace/a.txt': await hashContent(new TextEncoder().encode('same')),
      '/workspace/b/c.txt': await hashContent(new TextEncoder().encode('same')),
      '/workspace/d.txt': await hashContent(new TextEncoder().encode('other')),
    })
  })

  it('keeps projects apart in one database', async () => {
    const db = openDatabase()
    const one = await createLocalWorkspace({ db, projectID: 'prj_one' })
    await one.writeFile('a.txt', 'one')
    const two = await createLocalWorkspace({ db, projectID: 'prj_two' })
    expect(await two.stat('a.txt')).toBeUndefined()
  })

  it('removes a directory tree from storage', async () => {
    const db = openDatabase()
    const workspace = await createLocalWorkspace({ db, projectID })
    await workspace.writeFile('dir/a.txt', 'a')
    await workspace.writeFile('dir/sub/b.txt', 'b')
    await workspace.remove('dir', { recursive: true })
    expect(await db.files.where('projectID').equals(projectID).count()).toBe(0)
    const reloaded = await createLocalWorkspace({ db, projectID })
    expect(await reloaded.list('/workspace')).toEqual([])
  })

  it('reports every change to onChange', async () => {
    const db = openDatabase()
    const changes: WorkspaceChange[] = []
    const workspace = await createLocalWorkspace({ db, projectID, onChange: (change) => changes.push(change) })
    await workspace.writeFile('a.txt', 'x')
    await workspace.mkdir('d')
    await workspace.remove('a.txt')
    expect(changes).toEqual([
      { type: 'write', path: '/workspace/a.txt' },
      { type: 'mkdir', path: '/workspace/d' },
      { type: 'remove', path: '/workspace/a.txt' },
    ])
  })

  it('keeps a BOM and reads binary contents back byte for byte after a reload', async () => {
    const db = openDatabase()
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0x00, 0xff])
    await (await createLocalWorkspace({ db, projectID })).writeFile('bin', bytes)
    const reloaded = await createLocalWorkspace({ db, projectID })
    expect(Array.from(await reloaded.readFile('bin'))).toEqual(Array.from(bytes))
    expect((await reloaded.readText('bin')).startsWith('\uFEFFA')).toBe(true)
  })

  it('runs shell commands over its files', async () => {
    const db = openDatabase()
    const workspace = await createLocalWorkspace({ db, projectID })
    const result = await workspace.exec('mkdir -p src && echo hi > src/a.txt && cat src/a.txt', {})
    expect(result).toMatchObject({ exitCode: 0, output: 'hi\n', timedOut: false, aborted: false, runtime: 'offline' })
    const reloaded = await createLocalWorkspace({ db, projectID })
    expect(await reloaded.readText('src/a.txt')).toBe('hi\n')
  })
})
