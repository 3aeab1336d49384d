import { describe, expect, it, vi } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { createMemoryWorkspace } from '../workspace/local/testing/memory-workspace'
import { parseShellCommands } from '../tools/bash'
import type { RemoteWorkspace } from '../workspace/webcontainer/bridge'
import { WorkspaceManager } from './workspace-manager'
import { snapshotMemo } from '../session/turn-tools'

/** The programs of a line, by the shell's parser (as the worker wires it). */
const leadingWords = async (command: string) => (await parseShellCommands(command)).map((entry) => entry.words[0] ?? '')

function remote(): RemoteWorkspace {
  const workspace = createMemoryWorkspace()
  return Object.assign(workspace, {
    backend: 'webcontainer' as const,
    mount: vi.fn(async () => {}),
    exec: vi.fn(async () => ({ exitCode: 0, output: 'from WebContainer\n', timedOut: false, aborted: false })),
    dispose: () => {},
  }) as unknown as RemoteWorkspace
}

function manager(options: { allowed?: boolean; wantTimeoutMs?: number } = {}) {
  const { context, events } = makeTestContext()
  const requests: string[] = []
  const workspaces = new WorkspaceManager(() => context, {
    requestWebContainer: (reason) => requests.push(reason),
    webContainerAllowed: async () => options.allowed ?? true,
    programs: leadingWords,
    ...(options.wantTimeoutMs ? { wantTimeoutMs: options.wantTimeoutMs } : {}),
  })
  return { workspaces, requests, events }
}

describe('the workspace manager starts WebContainer only on demand', () => {
  it('asks the page once for commands wanting it at the same time, and runs them there once attached', async () => {
    const { workspaces, requests } = manager()
    const workspace = await workspaces.get('prj_1')
    const first = workspace.exec('npm install', {})
    const second = workspace.exec('npx tsc', {})
    await vi.waitFor(() => expect(requests).toHaveLength(1))
    // The two lines are checked concurrently (npm's takes a parse), so either may ask first: the page is asked once.
    expect(requests[0]).toMatch(/`(npm|npx)` needs Node.js and npm/)
    await workspaces.attach('prj_1', remote())
    expect((await first).output).toBe('from WebContainer\n')
    expect((await second).output).toBe('from WebContainer\n')
    expect(workspaces.status('prj_1').backend).toBe('webcontainer')
  })

  it('never asks when Settings say offline only, and the command says why', async () => {
    const { workspaces, requests } = manager({ allowed: false })
    const result = await (await workspaces.get('prj_1')).exec('npm install', {})
    expect(requests).toEqual([])
    expect(result.output).toMatch(/^WebContainer is not available: it is turned off in Settings/)
  })

  it('gives the boot failure to the waiting command when the page cannot start it', async () => {
    const { workspaces, requests } = manager()
    const pending = (await workspaces.get('prj_1')).exec('npm ci', {})
    await vi.waitFor(() => expect(requests).toHaveLength(1))
    workspaces.setUnavailable('StackBlitz could not be reached within 20 s; using the offline workspace.')
    expect((await pending).output).toMatch(/^WebContainer is not available: StackBlitz could not be reached within 20 s/)
  })

  it('stops waiting when no page answers', async () => {
    const { workspaces } = manager({ wantTimeoutMs: 20 })
    const result = await (await workspaces.get('prj_1')).exec('yarn', {})
    expect(result.output).toMatch(/^WebContainer is not available: no answer from the page/)
  })

  it('runs a command without Node or npm offline, asking nobody', async () => {
    const { workspaces, requests } = manager()
    const result = await (await workspaces.get('prj_1')).exec('echo offline', {})
    expect(requests).toEqual([])
    expect(result.exitCode).toBe(0)
    expect(result.output).toContain('offline')
  })
})

describe('the workspace a turn gets', () => {
  it('is one object from step to step, so steps that change no file share one walk of the project', async () => {
    const { workspaces } = manager()
    const walks: string[] = []
    const memo = snapshotMemo({ snapshots: { track: async (projectID: string) => (walks.push(projectID), `snp_${walks.length}`) } } as never)
    // As the loop does: the workspace is asked for at every step.
    for (let step = 0; step < 3; step++) await memo.track('prj_1', await workspaces.get('prj_1'))
    expect(walks).toHaveLength(1)
    await (await workspaces.get('prj_1')).writeFile('/workspace/changed.txt', 'a write')
    expect(await memo.track('prj_1', await workspaces.get('prj_1'))).toBe('snp_2')
  })
})

describe('changes made together', () => {
  it('are announced only once the whole change is done, in the order they happened', async () => {
    const { workspaces, events } = manager()
    const workspace = await workspaces.localOf('prj_1')
    await workspace.writeFile('/workspace/a.txt', 'a')
    const announced = () => events.flatMap((event) => (event.type === 'workspace.changed' ? [`${event.change.type} ${event.change.path}`] : []))
    expect(announced()).toEqual(['write /workspace/a.txt'])
    await workspaces.together('prj_1', async () => {
      await workspace.writeFile('/workspace/b.txt', 'a')
      await workspaces.together('prj_1', () => workspace.remove('/workspace/a.txt'))
      // Nested: still held until the outer change is done.
      expect(announced()).toEqual(['write /workspace/a.txt'])
    })
    expect(announced()).toEqual(['write /workspace/a.txt', 'write /workspace/b.txt', 'remove /workspace/a.txt'])
    // A failed change still announces what it did change.
    await expect(
      workspaces.together('prj_1', async () => {
        await workspace.writeFile('/workspace/c.txt', 'c')
        throw new Error('disk full')
      }),
    ).rejects.toThrow('disk full')
    expect(announced().at(-1)).toBe('write /workspace/c.txt')
    await workspace.writeFile('/workspace/d.txt', 'd')
    expect(announced().at(-1)).toBe('write /workspace/d.txt')
  })
})

describe('a folder project', () => {
  it('fails its tools with a clear error until the user reconnects it in this tab, and never serves a copy', async () => {
    const { context } = makeTestContext()
    const workspaces = new WorkspaceManager(() => context, { requestWebContainer: () => {}, webContainerAllowed: async () => false, programs: leadingWords })
    const handle = { kind: 'directory', name: 'app' } as unknown as FileSystemDirectoryHandle
    await context.db.folders.add({ type: 'folder', projectID: 'prj_1', name: 'app', handle })
    await expect(workspaces.get('prj_1')).rejects.toThrow('The folder app is not connected in this tab: click "Reconnect to app"')
    expect(await workspaces.folderStatus('prj_1')).toMatchObject({ name: 'app', connected: false })
    expect(await workspaces.folderStatus('prj_2')).toBeUndefined()
  })
})

describe('a stored workspace whose rows another device wrote', () => {
  it('is read again from storage after sync says so, and shows the files it wrote', async () => {
    const { context } = makeTestContext()
    const options = { requestWebContainer: () => {}, webContainerAllowed: async () => false, programs: leadingWords }
    const workspaces = new WorkspaceManager(() => context, options)
    const names = async () => (await (await workspaces.localOf('prj_1')).list('/workspace')).map((entry) => entry.name)
    expect(await names()).toEqual([])
    // Sync writes the rows without the loaded workspace: a second manager over the same database stands in for it.
    const writer = new WorkspaceManager(() => context, options)
    await (await writer.localOf('prj_1')).writeFile('/workspace/pulled.txt', 'from the laptop\n')
    expect(await names()).toEqual([])
    workspaces.forgetStored('prj_1')
    expect(await names()).toEqual(['pulled.txt'])
  })
})
