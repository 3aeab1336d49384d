import { afterEach, describe, expect, it } from 'vitest'
import type { WorkspaceChange } from '../workspace'
import { openDiskWorkspace } from './disk-workspace'
import { MemoryDirectory, type MemoryFile } from './testing/memory-directory'

type ObserverRecord = { type: string; relativePathComponents?: string[] }

/** A stand-in for the browser's FileSystemObserver: the test delivers the records. */
class FakeObserver {
  static last: FakeObserver | undefined
  constructor(readonly callback: (records: ObserverRecord[]) => void) {
    FakeObserver.last = this
  }
  async observe() {}
  disconnect() {}
}

afterEach(() => {
  delete (globalThis as { FileSystemObserver?: unknown }).FileSystemObserver
})

async function openObserved(files: Record<string, string>) {
  ;(globalThis as { FileSystemObserver?: unknown }).FileSystemObserver = FakeObserver
  let time = 1000
  const folder = MemoryDirectory.from(files, { now: () => (time += 10) })
  const changes: WorkspaceChange[] = []
  const workspace = await openDiskWorkspace({ handle: folder, onChange: (change) => changes.push(change) })
  return { folder, workspace, changes, observer: FakeObserver.last! }
}

describe('a folder watched by the browser', () => {
  it('looks only at the paths the observer reports, and at nothing when it reports none', async () => {
    const { folder, workspace, changes, observer } = await openObserved({ 'a.txt': 'one', 'b.txt': 'two' })
    await workspace.refresh()
    const b = (await folder.getFileHandle('b.txt')) as MemoryFile
    const opened = b.opened
    await workspace.refresh()
    expect(b.opened).toBe(opened)

    folder.put('a.txt', 'changed')
    observer.callback([{ type: 'modified', relativePathComponents: ['a.txt'] }])
    await workspace.refresh()
    expect(changes).toEqual([{ type: 'write', path: '/workspace/a.txt' }])
    expect(b.opened).toBe(opened)

    await folder.removeEntry('b.txt')
    observer.callback([{ type: 'disappeared', relativePathComponents: ['b.txt'] }])
    await workspace.refresh()
    expect((await workspace.list('/workspace')).map((entry) => entry.name)).toEqual(['a.txt'])
    workspace.dispose()
  })

  it('scans the whole folder again after the observer says it missed changes', async () => {
    const { folder, workspace, observer } = await openObserved({ 'a.txt': 'one' })
    await workspace.refresh()
    folder.put('new/deep.txt', 'x')
    observer.callback([{ type: 'unknown' }])
    await workspace.refresh()
    expect(await workspace.glob('**/*.txt')).toContain('/workspace/new/deep.txt')
    workspace.dispose()
  })
})
