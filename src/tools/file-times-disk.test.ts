import { describe, expect, it } from 'vitest'
import { openDiskWorkspace } from '../workspace/disk/disk-workspace'
import { MemoryDirectory } from '../workspace/disk/testing/memory-directory'
import { editTool } from './edit'
import { readTool } from './read'
import { makeToolContext } from './testing/tool-context'

function clock(start = 1000) {
  let time = start
  return () => (time += 10)
}

async function open(files: Record<string, string>) {
  const folder = MemoryDirectory.from(files, { name: 'app', now: clock() })
  return { folder, workspace: await openDiskWorkspace({ handle: folder, observe: false, scanReuseMs: 0 }) }
}

describe('the read-before-edit rule on a folder on disk', () => {
  it('refuses an edit of a file changed on disk since the agent read it', async () => {
    const { folder, workspace } = await open({ 'a.ts': 'const a = 1\n' })
    const context = makeToolContext({ workspace })
    await readTool.execute({ filePath: '/workspace/a.ts' }, context)
    // Another editor saves the file; no scan has run yet.
    folder.put('a.ts', 'const a = 2\n')
    await expect(editTool.execute({ filePath: '/workspace/a.ts', oldString: 'const a = 2', newString: 'const a = 3' }, context)).rejects.toThrow(
      'has been modified since it was last read',
    )
    expect(folder.text('a.ts')).toBe('const a = 2\n')
    await readTool.execute({ filePath: '/workspace/a.ts' }, context)
    await editTool.execute({ filePath: '/workspace/a.ts', oldString: 'const a = 2', newString: 'const a = 3' }, context)
    expect(folder.text('a.ts')).toBe('const a = 3\n')
  })

})
