import { describe, expect, it } from 'vitest'
import { WorkspaceError, type ExecRuntime, type Workspace } from '../workspace'

// What every backend of the Workspace port does alike, run by one test file per backend that runs under Node: the
// in-memory workspace (local/testing/memory-workspace.test.ts), the local workspace over its IndexedDB storage
// (worker/local-workspace-contract.test.ts: the storage is store's, so the wiring lives where both may be imported),
// and the mirrored workspace over a local remote (mirrored-workspace.test.ts). WebContainer is not here: it boots only
// in a cross-origin-isolated browser page, so webcontainer-workspace.test.ts checks it over a fake container instead.

/**
 * A fresh workspace of the backend under test. `files` maps paths (absolute, or relative to `/workspace`) to text
 * that is there before the test starts; `now` is the clock its modification times come from.
 */
export type MakeWorkspace = (files?: Record<string, string>, options?: { now?: () => number }) => Workspace | Promise<Workspace>

export interface WorkspaceContractOptions {
  /**
   * The runtime `exec` reports. The mirrored workspace runs commands where the project runs, in WebContainer, and says
   * so on every result even when its remote is a local workspace.
   */
  runtime: ExecRuntime
}

function clock(start = 1000) {
  let time = start
  return () => time++
}

async function errorOf(promise: Promise<unknown>): Promise<WorkspaceError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof WorkspaceError)) throw new Error(`expected a WorkspaceError, got ${String(error)}`)
  return error
}

export function describeWorkspaceContract(name: string, make: MakeWorkspace, options: WorkspaceContractOptions): void {
  describe(name, () => {
    it('serves its initial files at once', async () => {
      const workspace = await make({ 'src/a.ts': 'export const a = 1\n', '/workspace/README.md': '# hi' })
      expect(await workspace.readText('src/a.ts')).toBe('export const a = 1\n')
      expect(await workspace.readText('/workspace/README.md')).toBe('# hi')
      expect((await workspace.list('/workspace')).map((entry) => [entry.name, entry.type])).toEqual([
        ['README.md', 'file'],
        ['src', 'directory'],
      ])
    })

    it('creates parent directories on write and reports stats', async () => {
      const workspace = await make({}, { now: () => 42 })
      await workspace.writeFile('/workspace/a/b/c.txt', 'hello')
      expect(await workspace.stat('/workspace/a/b')).toMatchObject({ type: 'directory', name: 'b' })
      expect(await workspace.stat('/workspace/a/b/c.txt')).toEqual({
        path: '/workspace/a/b/c.txt',
        name: 'c.txt',
        type: 'file',
        size: 5,
        modified: 42,
      })
      expect(await workspace.stat('/workspace/nope')).toBeUndefined()
    })

    it('resolves relative paths against the root and normalizes dot segments', async () => {
      const workspace = await make({ 'a.txt': 'x' })
      expect(await workspace.readText('./src/../a.txt')).toBe('x')
      expect(await workspace.readText('/workspace/../workspace/a.txt')).toBe('x')
    })

    it('fails with codes and readable messages', async () => {
      const workspace = await make({ 'dir/file.txt': 'x' })
      const missing = await errorOf(workspace.readFile('/workspace/x.ts'))
      expect(missing.code).toBe('not-found')
      expect(missing.message).toBe('File not found: /workspace/x.ts')
      expect((await errorOf(workspace.readText('dir'))).code).toBe('is-directory')
      expect((await errorOf(workspace.list('dir/file.txt'))).code).toBe('not-directory')
      expect((await errorOf(workspace.writeFile('dir', 'x'))).code).toBe('is-directory')
      expect((await errorOf(workspace.writeFile('dir/file.txt/inner', 'x'))).code).toBe('not-directory')
      expect((await errorOf(workspace.remove('dir'))).code).toBe('not-empty')
      expect((await errorOf(workspace.remove('nothing'))).code).toBe('not-found')
      expect((await errorOf(workspace.remove('/workspace', { recursive: true }))).code).toBe('invalid-path')
      expect((await errorOf(workspace.mkdir('dir'))).code).toBe('exists')
      expect((await errorOf(workspace.mkdir('a/b/c'))).code).toBe('not-found')
    })

    it('removes directories recursively and creates them recursively', async () => {
      const workspace = await make({ 'dir/a.txt': 'a', 'dir/sub/b.txt': 'b' })
      await workspace.remove('dir', { recursive: true })
      expect(await workspace.stat('dir')).toBeUndefined()
      expect(await workspace.stat('dir/sub/b.txt')).toBeUndefined()
      await workspace.mkdir('x/y/z', { recursive: true })
      await workspace.mkdir('x/y/z', { recursive: true })
      expect(await workspace.stat('x/y/z')).toMatchObject({ type: 'directory' })
      await workspace.remove('x/y/z')
      expect(await workspace.list('x/y')).toEqual([])
    })

    it('keeps a byte order mark when reading text', async () => {
      const workspace = await make()
      await workspace.writeFile('bom.txt', new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]))
      expect(await workspace.readText('bom.txt')).toBe('\uFEFFhi')
      await workspace.writeFile('copy.txt', await workspace.readText('bom.txt'))
      expect(Array.from(await workspace.readFile('copy.txt'))).toEqual([0xef, 0xbb, 0xbf, 0x68, 0x69])
    })

    it('keeps concurrent writes in call order', async () => {
      const workspace = await make()
      await Promise.all(Array.from({ length: 20 }, (_, index) => workspace.writeFile(`deep/dir/f.txt`, `v${index}`)))
      expect(await workspace.readText('deep/dir/f.txt')).toBe('v19')
    })

    it('tells watchers about changes until they unsubscribe', async () => {
      const workspace = await make()
      const changes: unknown[] = []
      const stop = workspace.watch((change) => changes.push(change))
      await workspace.writeFile('src/a.ts', 'x')
      await workspace.remove('src', { recursive: true })
      stop()
      await workspace.writeFile('b.ts', 'y')
      expect(changes).toEqual([
        { type: 'mkdir', path: '/workspace/src' },
        { type: 'write', path: '/workspace/src/a.ts' },
        { type: 'remove', path: '/workspace/src' },
      ])
    })

    it('globs files under cwd, newest first, up to the limit', async () => {
      const workspace = await make({}, { now: clock() })
      await workspace.writeFile('src/old.ts', '')
      await workspace.writeFile('src/deep/mid.ts', '')
      await workspace.writeFile('src/new.ts', '')
      await workspace.writeFile('src/notes.md', '')
      await workspace.writeFile('other/x.ts', '')
      expect(await workspace.glob('**/*.ts', { cwd: 'src' })).toEqual([
        '/workspace/src/new.ts',
        '/workspace/src/deep/mid.ts',
        '/workspace/src/old.ts',
      ])
      expect(await workspace.glob('*.ts', { cwd: 'src', limit: 1 })).toEqual(['/workspace/src/new.ts'])
      expect(await workspace.glob('deep/*.ts', { cwd: 'src' })).toEqual(['/workspace/src/deep/mid.ts'])
      expect(await workspace.glob('/workspace/other/*.ts')).toEqual(['/workspace/other/x.ts'])
    })

    it('greps text files newest first, skipping binaries, with include and limit', async () => {
      const workspace = await make({}, { now: clock() })
      await workspace.writeFile('a.ts', 'const needle = 1\nno\nneedle again\n')
      await workspace.writeFile('b.md', 'a needle in docs\n')
      await workspace.writeFile('bin.dat', new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]))
      await workspace.writeFile('c.ts', 'needle last\r\n')
      const all = await workspace.grep('needle')
      expect(all.map((match) => [match.path, match.line, match.text])).toEqual([
        ['/workspace/c.ts', 1, 'needle last'],
        ['/workspace/b.md', 1, 'a needle in docs'],
        ['/workspace/a.ts', 1, 'const needle = 1'],
        ['/workspace/a.ts', 3, 'needle again'],
      ])
      expect((await workspace.grep('needle', { include: '*.ts' })).map((match) => match.path)).toEqual([
        '/workspace/c.ts',
        '/workspace/a.ts',
        '/workspace/a.ts',
      ])
      expect(await workspace.grep('needle', { limit: 2 })).toHaveLength(2)
      expect((await workspace.grep('^needle', { path: 'a.ts' })).map((match) => match.line)).toEqual([3])
    })

    it('runs a command line over its files and says which runtime served it', async () => {
      const workspace = await make()
      const result = await workspace.exec('mkdir -p src && echo hi > src/a.txt && cat src/a.txt', {})
      expect(result).toMatchObject({ exitCode: 0, output: 'hi\n', timedOut: false, aborted: false, runtime: options.runtime })
      expect(await workspace.readText('src/a.txt')).toBe('hi\n')
    })
  })
}
