import { describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from './local/memory-workspace'
import { mirrorWorkspace } from './mirrored-workspace'

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
