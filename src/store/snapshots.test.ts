import { describe, expect, it } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { getSnapshot, saveSnapshot } from './snapshots'

const snapshot = { id: 'snap-1', projectID: 'prj_1', files: { 'a.ts': 'h1' }, time: { created: 1 } }

describe('snapshots', () => {
  it('keeps the first row of a content: saving it again returns the original creation time', async () => {
    const { context } = makeTestContext()
    await saveSnapshot(context, snapshot)
    expect(await saveSnapshot(context, { ...snapshot, time: { created: 9 } })).toEqual(snapshot)
    expect(await getSnapshot(context, 'snap-1')).toEqual(snapshot)
  })

  it('refuses a snapshot that fails its schema and writes nothing', async () => {
    const { context, db } = makeTestContext()
    await expect(saveSnapshot(context, { ...snapshot, projectID: 'ses_1' })).rejects.toMatchObject({
      name: 'ValidationError',
      data: { shape: 'snapshot' },
    })
    expect(await db.snapshots.count()).toBe(0)
  })
})
