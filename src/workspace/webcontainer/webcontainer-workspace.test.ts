import type { WebContainer } from '@webcontainer/api'
import { describe, expect, it, vi } from 'vitest'
import { WorkspaceError, type WorkspaceChange } from '../workspace'
import { FakeContainer, type SpawnCall } from './testing/fake-container'
import type { ContainerLike, MountableContainer } from './container'
import { createWebContainerWorkspace, mountProjectFiles } from './webcontainer-workspace'

// The adapter is written against a narrow slice of the SDK; the real class must fit it.
const fits = (container: WebContainer): ContainerLike & MountableContainer => container
void fits

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

function setup(run?: (call: SpawnCall) => void) {
  const container = new FakeContainer(run)
  const workspace = createWebContainerWorkspace(container)
  return { container, workspace }
}

async function rejection(promise: Promise<unknown>): Promise<WorkspaceError> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason)
  expect(error).toBeInstanceOf(WorkspaceError)
  return error as WorkspaceError
}

describe('files', () => {
  it('maps /workspace onto the container working directory', async () => {
    const { container, workspace } = setup()
    expect(workspace.backend).toBe('webcontainer')
    expect(workspace.root).toBe('/workspace')
    await workspace.writeFile('/workspace/src/a.ts', 'export {}\n')
    expect(text(container.fs.files.get('/src/a.ts')!)).toBe('export {}\n')
    expect(await workspace.readText('/workspace/src/a.ts')).toBe('export {}\n')
    expect(await workspace.readText('src/a.ts')).toBe('export {}\n')
  })

  it('refuses paths outside the project', async () => {
    const { workspace } = setup()
    expect((await rejection(workspace.readFile('/etc/passwd'))).code).toBe('invalid-path')
    expect((await rejection(workspace.writeFile('/workspace/../x', 'x'))).code).toBe('invalid-path')
  })

  it('keeps a byte order mark and raw bytes', async () => {
    const { workspace } = setup()
    await workspace.writeFile('/workspace/bom.txt', new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]))
    expect(await workspace.readText('/workspace/bom.txt')).toBe('\uFEFFhi')
    expect([...(await workspace.readFile('/workspace/bom.txt'))]).toEqual([0xef, 0xbb, 0xbf, 0x68, 0x69])
  })

  it('turns the container errors into workspace errors', async () => {
    const { container, workspace } = setup()
    container.fs.seed({ 'src/a.ts': 'a' })
    expect((await rejection(workspace.readFile('/workspace/missing'))).code).toBe('not-found')
    expect((await rejection(workspace.readFile('/workspace/src'))).code).toBe('is-directory')
    expect((await rejection(workspace.list('/workspace/src/a.ts'))).code).toBe('not-directory')
    expect((await rejection(workspace.mkdir('/workspace/src'))).code).toBe('exists')
    expect((await rejection(workspace.remove('/workspace/src'))).code).toBe('not-empty')
    expect((await rejection(workspace.remove('/workspace/nothing'))).code).toBe('not-found')
  })

  it('lists, stats, makes and removes', async () => {
    const { container, workspace } = setup()
    container.fs.seed({ 'b.txt': 'four', 'a/x.txt': 'x' })
    expect((await workspace.list('/workspace')).map(({ name, type, size }) => ({ name, type, size }))).toEqual([
      { name: 'a', type: 'directory', size: 0 },
      { name: 'b.txt', type: 'file', size: 4 },
    ])
    expect(await workspace.stat('/workspace/b.txt')).toMatchObject({ path: '/workspace/b.txt', type: 'file', size: 4 })
    expect(await workspace.stat('/workspace')).toMatchObject({ type: 'directory' })
    expect(await workspace.stat('/workspace/none/deeper')).toBeUndefined()
    await workspace.mkdir('/workspace/p/q', { recursive: true })
    expect(await workspace.stat('/workspace/p/q')).toMatchObject({ type: 'directory' })
    await workspace.remove('/workspace/p/q')
    await workspace.remove('/workspace/a', { recursive: true })
    expect(await workspace.stat('/workspace/a/x.txt')).toBeUndefined()
    expect((await rejection(workspace.remove('/workspace', { recursive: true }))).code).toBe('invalid-path')
  })

  it('mounts persisted project files as a tree', async () => {
    const container = new FakeContainer()
    const data = new TextEncoder().encode('{}')
    await mountProjectFiles(container, [
      { path: 'package.json', data },
      { path: '/workspace/src/index.ts', data },
    ])
    expect(container.mounted).toEqual([
      { 'package.json': { file: { contents: data } }, src: { directory: { 'index.ts': { file: { contents: data } } } } },
    ])
    await expect(mountProjectFiles(container, [{ path: '../escape', data }])).rejects.toMatchObject({ code: 'invalid-path' })
  })
})

describe('glob and grep', () => {
  it('globs files newest first, skipping node_modules unless asked', async () => {
    const { container, workspace } = setup()
    container.fs.seed({ 'old.ts': '', 'src/b.ts': '', 'src/c.js': '', 'node_modules/dep/index.ts': '' })
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 60_000)
    await workspace.writeFile('/workspace/src/new.ts', '')
    now.mockRestore()
    expect(await workspace.glob('**/*.ts')).toEqual(['/workspace/src/new.ts', '/workspace/old.ts', '/workspace/src/b.ts'])
    expect(await workspace.glob('*.ts', { cwd: '/workspace/src', limit: 1 })).toEqual(['/workspace/src/new.ts'])
    expect(await workspace.glob('node_modules/**/*.ts')).toEqual(['/workspace/node_modules/dep/index.ts'])
  })

  it('greps lines with their numbers, filtered by include', async () => {
    const { container, workspace } = setup()
    container.fs.seed({ 'a.ts': 'const x = 1\n// TODO one\n', 'b.md': 'TODO two', 'sub/c.ts': 'x\r\nTODO three' })
    container.fs.files.set('/blob.bin', new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0]))
    const matches = await workspace.grep('TODO', { include: '*.ts' })
    expect(matches.map(({ path, line, text }) => ({ path, line, text }))).toEqual([
      { path: '/workspace/a.ts', line: 2, text: '// TODO one' },
      { path: '/workspace/sub/c.ts', line: 2, text: 'TODO three' },
    ])
    expect((await workspace.grep('TODO')).map((match) => match.path)).not.toContain('/workspace/blob.bin')
    expect(await workspace.grep('TODO', { path: '/workspace/b.md' })).toMatchObject([{ line: 1, text: 'TODO two' }])
    expect(await workspace.grep('TODO', { limit: 1 })).toHaveLength(1)
    expect((await rejection(workspace.grep('TODO', { path: '/workspace/missing' }))).code).toBe('not-found')
  })
})

describe('exec', () => {
  it('runs the command line in jsh and streams its output', async () => {
    const { container, workspace } = setup((call) => {
      call.process.write('hello ')
      call.process.write('world\n')
      call.process.end(0)
    })
    const chunks: string[] = []
    const result = await workspace.exec('echo hello world', { cwd: '/workspace/src', env: { A: '1' }, onOutput: (chunk) => chunks.push(chunk) })
    expect(result).toEqual({ exitCode: 0, output: 'hello world\n', timedOut: false, aborted: false })
    expect(chunks).toEqual(['hello ', 'world\n'])
    expect(container.spawned[0]).toMatchObject({ command: 'jsh', args: ['-c', 'echo hello world'], options: { cwd: 'src', env: { A: '1' } } })
  })

  it('keeps output that arrives just after the exit code', async () => {
    const { workspace } = setup((call) => {
      call.process.write('first\n')
      call.process.settle(3)
      void call.process.exit.then(() => {
        call.process.write('last\n')
        call.process.closeOutput()
      })
    })
    expect(await workspace.exec('false', {})).toEqual({ exitCode: 3, output: 'first\nlast\n', timedOut: false, aborted: false })
  })

  it('does not wait for the output of a child left running in the background', async () => {
    const { workspace } = setup((call) => {
      call.process.write('started\n')
      call.process.settle(0)
    })
    expect(await workspace.exec('npm run dev &', {})).toEqual({ exitCode: 0, output: 'started\n', timedOut: false, aborted: false })
  })

  it('kills a command that outlives its timeout', async () => {
    let call!: SpawnCall
    const { workspace } = setup((spawned) => {
      call = spawned
      spawned.process.write('serving…\n')
    })
    const result = await workspace.exec('npx serve', { timeout: 30 })
    expect(result).toEqual({ exitCode: 124, output: 'serving…\n', timedOut: true, aborted: false })
    expect(call.process.killed).toBe(true)
  })

  it('kills a command when aborted', async () => {
    let call!: SpawnCall
    const { workspace } = setup((spawned) => {
      call = spawned
      spawned.process.write('working\n')
    })
    const controller = new AbortController()
    const result = await workspace.exec('sleep 100', {
      signal: controller.signal,
      onOutput: () => controller.abort(),
    })
    expect(result).toEqual({ exitCode: 130, output: 'working\n', timedOut: false, aborted: true })
    expect(call.process.killed).toBe(true)
  })

  it('does not start a command whose signal is already aborted', async () => {
    const { container, workspace } = setup()
    const result = await workspace.exec('rm -rf /', { signal: AbortSignal.abort() })
    expect(result).toMatchObject({ exitCode: 130, aborted: true })
    expect(container.spawned).toHaveLength(0)
  })
})

describe('watch', () => {
  it('reports its own writes, also without a native watcher', async () => {
    const container = new FakeContainer(undefined, { watch: false })
    const workspace = createWebContainerWorkspace(container)
    const changes: WorkspaceChange[] = []
    const stop = workspace.watch((change) => changes.push(change))
    await workspace.writeFile('/workspace/a/b.txt', 'b')
    await workspace.mkdir('/workspace/c')
    await workspace.remove('/workspace/a', { recursive: true })
    expect(changes).toEqual([
      { type: 'write', path: '/workspace/a/b.txt' },
      { type: 'mkdir', path: '/workspace/c' },
      { type: 'remove', path: '/workspace/a' },
    ])
    stop()
    await workspace.writeFile('/workspace/d.txt', 'd')
    expect(changes).toHaveLength(3)
  })

  it('reports the changes commands make through the container watcher', async () => {
    const { container, workspace } = setup()
    const changes: WorkspaceChange[] = []
    workspace.watch((change) => changes.push(change))
    // A command (not the adapter) changes files: only the container's watcher sees it.
    container.fs.seed({ 'dist/built.js': '' })
    container.fs.emitNative('rename', 'dist')
    await vi.waitFor(() => expect(changes).toEqual([{ type: 'mkdir', path: '/workspace/dist' }]))
    container.fs.emitNative('change', 'dist/built.js')
    expect(changes.at(-1)).toEqual({ type: 'write', path: '/workspace/dist/built.js' })
    container.fs.files.delete('/dist/built.js')
    container.fs.emitNative('rename', 'dist/built.js')
    await vi.waitFor(() => expect(changes.at(-1)).toEqual({ type: 'remove', path: '/workspace/dist/built.js' }))
    const seen = changes.length
    container.fs.emitNative('change', 'node_modules/dep/index.js')
    expect(changes).toHaveLength(seen)
    workspace.dispose()
    expect(container.fs.watchers.size).toBe(0)
  })

  it('also hears its own writes echoed by the container watcher, so listeners must be idempotent', async () => {
    const { workspace } = setup()
    const changes: WorkspaceChange[] = []
    workspace.watch((change) => changes.push(change))
    await workspace.writeFile('/workspace/a.txt', 'a')
    await vi.waitFor(() => expect(changes).toEqual([{ type: 'write', path: '/workspace/a.txt' }, { type: 'write', path: '/workspace/a.txt' }]))
  })
})
