import { expect, test } from './testing/fixtures'
import { Sharing } from './page-models/share'
import { storedRows } from './testing/stored-rows'
import { longSessionFile } from '../src/share/testing/long-transcript'

// Issue 33: a large import shows how far it is (a bar and a count) and can be cancelled, leaving nothing stored.

test.describe.configure({ timeout: 120_000 })

/** 4,000 messages (8,000 parts), a few MB: long enough to write that the bar is seen between its ends. */
const ROUNDS = 40
const TOTAL = ROUNDS * 100

function largeExport(): { name: string; buffer: Buffer } {
  return { name: 'large.tabcode.json', buffer: Buffer.from(longSessionFile(ROUNDS)) }
}

test('a large import shows its bar and count moving, then opens the whole session', async ({ page }) => {
  const app = new Sharing(page)
  await app.open()
  const before = await storedRows(page)
  const file = largeExport()
  expect(file.buffer.length).toBeGreaterThan(2_000_000)
  await app.importFile(file)
  const bar = page.getByRole('progressbar', { name: 'Import progress' })
  // Between its ends: some messages written, not all.
  await expect
    .poll(
      async () => {
        const [value, max] = await Promise.all([bar.getAttribute('value', { timeout: 1_000 }), bar.getAttribute('max', { timeout: 1_000 })])
        return value !== null && Number(value) > 0 && Number(value) < Number(max) && Number(max) === TOTAL
      },
      { intervals: [20], timeout: 60_000 },
    )
    .toBe(true)
  await expect(app.status(/^Importing…\s*[\d,]+ of 4,000 messages/)).toBeVisible()
  await expect(app.status('Imported a session (read-only)')).toBeVisible({ timeout: 60_000 })
  await expect(bar).toBeHidden()
  const sessionID = await app.openSessionID()
  const stored = await page.evaluate(async (sessionID) => (await window.__tabcode!.api.getSession(sessionID)).id, sessionID)
  expect(stored).toBe(sessionID)
  expect((await storedRows(page)).counts.messages).toBe(before.counts.messages! + TOTAL)
})

test('an import cancelled while it writes stores nothing and says so', async ({ page }) => {
  const app = new Sharing(page)
  await app.open()
  const before = await storedRows(page)
  await app.importFile(largeExport())
  const bar = page.getByRole('progressbar', { name: 'Import progress' })
  // Cancelled once messages are being written: the transaction holds some of them already.
  await expect.poll(async () => Number((await bar.getAttribute('value', { timeout: 1_000 })) ?? 0), { intervals: [20], timeout: 60_000 }).toBeGreaterThan(0)
  await page.getByRole('button', { name: 'Cancel import' }).click()
  await expect(app.status('Import cancelled. Nothing was imported.')).toBeVisible({ timeout: 30_000 })
  await expect(bar).toBeHidden()
  const after = await storedRows(page)
  for (const store of ['projects', 'sessions', 'messages', 'parts', 'blobs']) expect(after.digest[store], store).toBe(before.digest[store])
})
