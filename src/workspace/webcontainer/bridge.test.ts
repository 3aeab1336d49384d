import { afterEach, describe, expect, it, vi } from 'vitest'
import { WorkspaceError, type WorkspaceChange } from '../workspace'
import { connectWorkspace, exposeWorkspace, type RemoteWorkspace } from './bridge'
import { FakeContainer, type SpawnCall } from './testing/fake-container'
import { createWebContainerWorkspace, mountProjectFiles } from './webcontainer-workspace'

// The real thing: a MessageChannel (Node has one), the main thread's side serving a WebContainer workspace over a
// fake container, and the worker's side using it through the port.

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function connect(run?: (call: SpawnCall) => void): { container: FakeContainer; remote: RemoteWorkspace; watching: Set<unknown> } {
  const container = new FakeContainer(run)
  const workspace = createWebContainerWorkspace(container)
  // Counts the main thread's subscriptions, so a test can see an unsubscribe arrive.
  const watching = new Set<unknown>()
  const watch = workspace.watch
  workspace.watch = (listener) => {
    watching.add(listener)
    const stop = watch(listener)
    return () => {
      watching.delete(listener)
      stop()
    }
  }
  const channel = new MessageChannel()
  const stop = exposeWorkspace(workspace, channel.port1, { mount: (files) => mountProjectFiles(container, files) })
  const remote = connectWorkspace(channel.port2)
  cleanups.push(() => {
    remote.dispose()
    stop()
    channel.port2.close()
    workspace.dispose()
  })
  return { container, remote, watching }
}

describe('workspace bridge', () => {
  it('carries file operations across the port', async () => {
    const { container, remote } = connect()
    expect(remote.backend).toBe('webcontainer')
    expect(remote.root).toBe('/workspace')
    await remote.writeFile('/workspace/src/a.ts', 'export const a = 1\n')
    await remote.writeFile('/workspace/bin', new Uint8Array([1, 2, 3]))
    expect(await remote.readText('/workspace/src/a.ts')).toBe('export const a = 1\n')
    expect([...(await remote.readFile('/workspace/bin'))]).toEqual([1, 2, 3])
    expect((await remote.list('/workspace')).map((entry) => entry.name)).toEqual(['bin', 'src'])
    expect(await remote.stat('/workspace/nothing')).toBeUndefined()
    expect(await remote.glob('**/*.ts')).toEqual(['/workspace/src/a.ts'])
    expect(await remote.grep('const')).toMatchObject([{ path: '/workspace/src/a.ts', line: 1 }])
    await remote.mkdir('/workspace/empty')
    await remote.remove('/workspace/empty')
    expect(container.fs.directories.has('/empty')).toBe(false)
  })

  it('mounts the project files in one call', async () => {
    const { container, remote } = connect()
    await remote.mount([{ path: 'src/index.ts', data: new TextEncoder().encode('x') }, { path: 'README.md', data: '# hi' }])
    expect(container.mounted).toEqual([
      { src: { directory: { 'index.ts': { file: { contents: new TextEncoder().encode('x') } } } }, 'README.md': { file: { contents: '# hi' } } },
    ])
  })

  it('keeps the code of a workspace error', async () => {
    const { remote } = connect()
    const error = await remote.readFile('/workspace/missing').catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(WorkspaceError)
    expect(error).toMatchObject({ code: 'not-found', path: '/workspace/missing', message: 'No such file or directory: /workspace/missing' })
    await expect(remote.grep('(')).rejects.toMatchObject({ name: 'SyntaxError' })
  })

  it('streams output in order before the result arrives', async () => {
    const { remote } = connect((call) => {
      for (let index = 0; index < 20; index++) call.process.write(`line ${index}\n`)
      call.process.end(0)
    })
    const chunks: string[] = []
    const result = await remote.exec('seq 20', { onOutput: (chunk) => chunks.push(chunk) })
    expect(result.exitCode).toBe(0)
    expect(chunks).toEqual(Array.from({ length: 20 }, (_, index) => `line ${index}\n`))
    expect(result.output).toBe(chunks.join(''))
  })

  it('aborts a running command from the worker side', async () => {
    let call: SpawnCall | undefined
    const { remote } = connect((spawned) => {
      call = spawned
      spawned.process.write('waiting\n')
    })
    const controller = new AbortController()
    const result = await remote.exec('sleep 100', { signal: controller.signal, onOutput: () => controller.abort() })
    expect(result).toEqual({ exitCode: 130, output: 'waiting\n', timedOut: false, aborted: true })
    expect(call?.process.killed).toBe(true)
  })

  it('answers an already aborted command without crossing the port', async () => {
    const { container, remote } = connect()
    expect(await remote.exec('true', { signal: AbortSignal.abort() })).toMatchObject({ exitCode: 130, aborted: true })
    expect(container.spawned).toHaveLength(0)
  })

  it('times out across the port', async () => {
    const { remote } = connect(() => {})
    expect(await remote.exec('sleep 100', { timeout: 20 })).toMatchObject({ exitCode: 124, timedOut: true })
  })

  it('delivers changes to a watcher until it unsubscribes', async () => {
    const { remote, watching } = connect()
    const changes: WorkspaceChange[] = []
    const stop = remote.watch((change) => changes.push(change))
    // Calls on the port are handled in order, so this write comes after the subscription; the change itself travels on
    // the listener's own port, hence the wait.
    await remote.writeFile('/workspace/seen.txt', 'x')
    await vi.waitFor(() => expect(changes).toContainEqual({ type: 'write', path: '/workspace/seen.txt' }))
    expect(watching.size).toBe(1)
    stop()
    await vi.waitFor(() => expect(watching.size).toBe(0))
    await remote.writeFile('/workspace/unseen.txt', 'x')
    expect(changes.map((change) => change.path)).not.toContain('/workspace/unseen.txt')
  })
})
