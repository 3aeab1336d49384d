import { expect, test } from 'vitest'
import { strToU8, zipSync } from 'fflate'
import { CancelledError } from '../core/errors'
import type { Progress } from '../core/progress'
import { makeTestContext } from '../testing/test-context'
import { prepareProject } from './workspace-handlers'

const files = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`app/src/file${index}.ts`, strToU8(`export const n${index} = ${index}\n`.repeat(50))]))

test("a zip's project reports the bytes it inflated, then the files made ready, each ending at its total", async () => {
  const { context } = makeTestContext()
  const seen: Progress[] = []
  const { rows } = await prepareProject(context, { name: 'Zip', source: { type: 'zip', data: zipSync(files) } }, undefined, { onProgress: (progress) => seen.push(progress) })
  const bytes = seen.filter((progress) => progress.type === 'bytes')
  const counted = seen.flatMap((progress) => (progress.type === 'count' ? [progress.done] : []))
  expect(bytes.at(-1)).toEqual({ type: 'bytes', done: bytes[0]!.total, total: Object.values(files).reduce((sum, data) => sum + data.length, 0) })
  expect(counted).toEqual(Array.from({ length: 31 }, (_, index) => index))
  expect(rows.blobs).toHaveLength(30)
})

test('a new project cancelled while its files are copied in stops with CancelledError before anything is written', async () => {
  const { context } = makeTestContext()
  const cancel = new AbortController()
  const preparing = prepareProject(context, { name: 'Folder', source: { type: 'files', files: Object.entries(files).map(([path, data]) => ({ path, data })) } }, undefined, {
    signal: cancel.signal,
    onProgress: (progress) => progress.type === 'count' && progress.done === 10 && cancel.abort(),
  })
  await expect(preparing).rejects.toSatisfy((error) => CancelledError.isInstance(error))
  expect(await context.db.projects.count()).toBe(0)
})
