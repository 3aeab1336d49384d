import { describe, expect, test } from 'vitest'
import { CancelledError } from '../core/errors'
import type { Progress } from '../core/progress'
import { importFile } from './open'
import { longSessionFile } from './testing/long-transcript'
import { rowCounts, setupShareStore } from './testing/store'
import { IMPORT_BATCH_MESSAGES } from './write-batches'

const counts = (reports: Progress[]) => reports.flatMap((report) => (report.type === 'count' ? [report] : []))

describe('import progress', () => {
  test('a large import reports the file being read, then messages written in rising counts that end at the total', async () => {
    const { context, projectID } = await setupShareStore()
    const reports: Progress[] = []
    const outcome = await importFile({ context, projectID }, longSessionFile(6), { onProgress: (report) => reports.push(report) })
    expect(outcome.kind === 'session' && outcome.counts.messages).toBe(600)
    expect(reports[0]).toEqual({ type: 'working' })
    const written = counts(reports)
    expect(written.every((report) => report.unit === 'messages' && report.total === 600)).toBe(true)
    const done = written.map((report) => report.done)
    expect(done[0]).toBe(0)
    expect(done.at(-1)).toBe(600)
    // Every batch reports, each count above the one before.
    expect(done.length).toBe(1 + Math.ceil(600 / IMPORT_BATCH_MESSAGES))
    for (let index = 1; index < done.length; index++) expect(done[index]).toBeGreaterThan(done[index - 1]!)
    expect(await rowCounts(context)).toMatchObject({ sessions: 1, messages: 600 })
  })

  test('cancelled while it writes, an import stores nothing and announces nothing', async () => {
    const { context, projectID, events } = await setupShareStore()
    const before = await rowCounts(context)
    const cancel = new AbortController()
    const reports: Progress[] = []
    const importing = importFile({ context, projectID }, longSessionFile(6), {
      signal: cancel.signal,
      onProgress: (report) => {
        reports.push(report)
        // Halfway through the write: some batches are in the transaction already.
        if (report.type === 'count' && report.done >= 300) cancel.abort()
      },
    })
    await expect(importing).rejects.toSatisfy((error) => CancelledError.isInstance(error))
    expect(counts(reports).at(-1)?.done).toBe(IMPORT_BATCH_MESSAGES * 2)
    expect(await rowCounts(context)).toEqual(before)
    expect(events.filter((event) => event.type === 'session.created')).toEqual([])
  })

  test('cancelled before it writes (while the file is checked), an import stores nothing', async () => {
    const { context, projectID } = await setupShareStore()
    const before = await rowCounts(context)
    const cancel = new AbortController()
    const importing = importFile({ context, projectID }, longSessionFile(1), {
      signal: cancel.signal,
      onProgress: (report) => report.type === 'working' && cancel.abort(),
    })
    await expect(importing).rejects.toSatisfy((error) => CancelledError.isInstance(error))
    expect(await rowCounts(context)).toEqual(before)
  })
})
