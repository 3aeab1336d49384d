import { strToU8, zipSync } from 'fflate'
import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from '../page-models/conversation'
import { lyingZip } from '../../src/workspace/testing/zip-archive'

// Issue 27, "zip imports": a zipped project is a stranger's archive. An entry whose bytes did not match its CRC-32
// was imported without a word, and a 1.8 MB zip whose entries declare 1 KB but inflate to 256 MB each held the
// worker for 7–15 s. Every entry is now held to its checksum and to its declared size while it inflates, and the
// import is refused with the entry named and nothing written.

/** Fills the New project dialog with a zip and presses Create; returns the dialog. */
async function importZip(page: Page, name: string, zip: Uint8Array) {
  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByLabel('Name', { exact: true }).fill(name)
  await dialog.getByRole('radio', { name: 'A zip archive' }).check()
  await dialog.getByLabel('Zip file', { exact: true }).setInputFiles({ name: `${name}.zip`, mimeType: 'application/zip', buffer: Buffer.from(zip) })
  await expect(dialog.getByRole('status')).toContainText(`${name}.zip`)
  await dialog.getByRole('button', { name: 'Create project' }).click()
  return dialog
}

test('a zip whose entry does not match its CRC-32 is refused, naming the file, and no project is written', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  const projects = page.getByRole('combobox', { name: 'Project' }).locator('option')
  await expect(projects).toHaveCount(1)
  // Stored (not deflated), so one flipped byte still reads: only the checksum can tell.
  const zip = zipSync({ 'site/index.html': strToU8('<h1>Welcome</h1>\n'), 'site/js/app.js': strToU8('export const total = 42\n') }, { level: 0 })
  const at = Buffer.from(zip).indexOf('total = 42')
  zip[at + 'total = '.length] = '9'.charCodeAt(0)

  const dialog = await importZip(page, 'Tampered', zip)
  await expect(dialog.getByRole('alert')).toContainText(
    "site/js/app.js is damaged in this archive: its contents do not match the archive's CRC-32 checksum, so nothing was imported.",
  )
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(projects).toHaveCount(1)
  expect(await page.evaluate(async () => (await window.__tabcode!.api.listProjects()).length)).toBe(1)
})

test('a zip whose entries lie about their size is stopped at once with the entry named, and the worker answers meanwhile', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  // The import runs in the worker's engine: loaded first, so the import starts as soon as it is sent.
  await page.evaluate(() => window.__tabcode!.api.mcpStatus({}))
  const projects = page.getByRole('combobox', { name: 'Project' }).locator('option')
  await expect(projects).toHaveCount(1)
  // 7 entries that declare 1 KB and inflate to 256 MiB of zeros each: 1.8 MB on disk.
  const zip = lyingZip()
  expect(zip.length).toBeLessThan(2 * 1024 * 1024)

  const dialog = await importZip(page, 'Lying', zip)
  // Another worker call sent while the import runs: the worker takes turns, so it answers in a moment (the lying
  // archive held it for 7–15 s).
  const answeredIn = await page.evaluate(async () => {
    const started = performance.now()
    await window.__tabcode!.api.listSessions({ roots: true, limit: 10 })
    return performance.now() - started
  })
  expect(answeredIn).toBeLessThan(3_000)
  await expect(dialog.getByRole('alert')).toContainText(
    'data/part-0.bin holds more than the 1,024 bytes this archive declares for it: the archive is damaged or built to exhaust memory, so nothing was imported.',
    { timeout: 5_000 },
  )
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(projects).toHaveCount(1)
  expect(await page.evaluate(async () => (await window.__tabcode!.api.listProjects()).length)).toBe(1)
})
