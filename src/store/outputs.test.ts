import { describe, expect, it } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { readOutput, saveOutput } from './outputs'

const output = {
  id: 'tool_01',
  sessionID: 'ses_01',
  messageID: 'msg_01',
  partID: 'prt_01',
  text: 'line 1\nline 2',
  time: { created: 1 },
}

describe('tool outputs', () => {
  it('keeps a whole output to be read back by its id', async () => {
    const { context } = makeTestContext()
    await saveOutput(context, output)
    expect(await readOutput(context, 'tool_01')).toEqual(output)
  })

  it('refuses an output that fails its schema and writes nothing', async () => {
    const { context, db } = makeTestContext()
    await expect(saveOutput(context, { ...output, partID: 'unknown' })).rejects.toMatchObject({
      name: 'ValidationError',
      data: { shape: 'tool output' },
    })
    expect(await db.outputs.count()).toBe(0)
  })
})
