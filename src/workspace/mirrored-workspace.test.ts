import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from './local/testing/memory-workspace'
import { mirrorWorkspace } from './mirrored-workspace'
import { describeWorkspaceContract } from './testing/workspace-contract'

const mirrors: Array<{ dispose(): void }> = []
afterEach(() => {
  for (const mirror of mirrors.splice(0)) mirror.dispose()
})

// The container's side is a local workspace here (WebContainer boots only in a browser page), holding the same
// files as the persisted copy, as after a boot.
describeWorkspaceContract(
  'mirrored workspace over a local remote',
  (files, options) => {
    const mirror = mirrorWorkspace(createMemoryWorkspace(files, options), createMemoryWorkspace(files, options))
    mirrors.push(mirror)
    return mirror
  },
  { runtime: 'webcontainer' },
)

describe('WebContainer mirrored into the persisted workspace', () => {
  it('writes through to both, and reads from the container', async () => {
    const remote = createMemoryWorkspace({ 'only-remote.txt': 'r' })
    const local = createMemoryWorkspace()
    const mirrored = mirrorWorkspace(remote, local)
    await mirrored.writeFile('/workspace/a.txt', 'hello')
    expect(await remote.readText('/workspace/a.txt')).toBe('hello')
    expect(await local.readText('/workspace/a.txt')).toBe('hello')
    expect(await mirrored.readText('/workspace/only-remote.txt')).toBe('r')
    mirrored.dispose()
  })

  it('copies back what commands change in the container, but not node_modules', async () => {
    const remote = createMemoryWorkspace()
    const local = createMemoryWorkspace()
    const mirrored = mirrorWorkspace(remote, local)
    const copied = new Promise<void>((resolve) => local.watch((change) => change.path === '/workspace/gen.txt' && resolve()))
    await remote.writeFile('/workspace/node_modules/x/index.js', 'x')
    await remote.writeFile('/workspace/gen.txt', 'generated')
    await copied
    expect(await local.readText('/workspace/gen.txt')).toBe('generated')
    expect(await local.stat('/workspace/node_modules/x/index.js')).toBeUndefined()
    mirrored.dispose()
  })
})
