import { describe, expect, it } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { getBlobs, putBlobs } from './blobs'

const blob = (text: string, hash: string) => {
  const data = new TextEncoder().encode(text)
  return { hash, data, size: data.length }
}

describe('blobs', () => {
  it('stores each content once and reads them back in order', async () => {
    const { context } = makeTestContext()
    await putBlobs(context, [blob('a', 'h1'), blob('b', 'h2')])
    await putBlobs(context, [blob('a', 'h1')])
    expect((await getBlobs(context, ['h2', 'missing', 'h1'])).map((row) => row?.size)).toEqual([1, undefined, 1])
    expect(await context.db.blobs.count()).toBe(2)
  })

  it('refuses a blob that fails its schema and writes none of the batch', async () => {
    const { context, db } = makeTestContext()
    await expect(putBlobs(context, [blob('a', 'h1'), { ...blob('b', 'h2'), size: -1 }])).rejects.toMatchObject({
      name: 'ValidationError',
      data: { shape: 'blob' },
    })
    expect(await db.blobs.count()).toBe(0)
  })
})
