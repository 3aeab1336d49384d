import { describe, expect, it } from 'vitest'
import { createFileTimes, withFileLock } from './file-times'
import { makeTestWorkspace } from './testing/tool-context'
import { ToolInputError } from './tool'

describe('createFileTimes', () => {
  it('refuses a file never read', () => {
    const files = createFileTimes()
    expect(() => files.assertFresh('/workspace/a.ts', 1)).toThrow(
      new ToolInputError('You must read file /workspace/a.ts before overwriting it. Use the read tool first'),
    )
  })

  it('accepts the version read and refuses a newer one', () => {
    const files = createFileTimes()
    files.read('/workspace/./a.ts', Date.UTC(2026, 0, 1))
    expect(() => files.assertFresh('/workspace/a.ts', Date.UTC(2026, 0, 1))).not.toThrow()
    expect(() => files.assertFresh('/workspace/a.ts', Date.UTC(2026, 0, 2))).toThrow(
      'File /workspace/a.ts has been modified since it was last read.\nLast modification: 2026-01-02T00:00:00.000Z\n' +
        'Last read: 2026-01-01T00:00:00.000Z\n\nPlease read the file again before modifying it.',
    )
  })
})

describe('withFileLock', () => {
  it('runs tasks on one file one after another, and other files alongside', async () => {
    const workspace = makeTestWorkspace()
    const order: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const first = withFileLock(workspace, '/workspace/a', async () => {
      order.push('first start')
      await gate
      order.push('first end')
    })
    const second = withFileLock(workspace, '/workspace/a', async () => {
      order.push('second')
    })
    await withFileLock(workspace, '/workspace/b', async () => {
      order.push('other file')
    })
    release()
    await Promise.all([first, second])
    expect(order).toEqual(['first start', 'other file', 'first end', 'second'])
  })

  it('keeps going after a task fails', async () => {
    const workspace = makeTestWorkspace()
    await expect(withFileLock(workspace, '/workspace/a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(withFileLock(workspace, '/workspace/a', async () => 'ok')).resolves.toBe('ok')
  })
})
