import { expect, test } from './testing/fixtures'
import { Sharing } from './page-models/share'
import { KillableBrowser } from './testing/browser-kill'
import { storedRows } from './testing/stored-rows'
import { richTranscript } from '../src/share/testing/rich-transcript'
import type { SessionTranscript } from '../src/share/transcript'

// Issue 13: an import of a session file with workspace files is all or nothing. A refused file writes no row of
// any store, and a browser killed while the import writes leaves none of it; importing again then makes one copy.

test.describe.configure({ timeout: 120_000 })

const IMPORTED = 'Imported a session (read-only)'

/** A tabcode session file (the rich transcript, a child session included) with `files` workspace files. */
function sessionFile(files: number, edit: (transcript: SessionTranscript) => void = () => {}, tag = 'file'): { name: string; mimeType: string; buffer: Buffer } {
  const transcript = richTranscript()
  edit(transcript)
  const workspace = Array.from({ length: files }, (_, index) => ({
    path: `src/module${index % 40}/file${index}.ts`,
    // Distinct contents, a few KB each: a blob per file, and a write that takes a while.
    text: `export const value${index} = ${index}\n${`// line of ${tag} ${index}\n`.repeat(200)}`,
  }))
  const document = { format: 'tabcode-session', version: 1, exported: { time: Date.now(), app: 'e2e' }, session: transcript, files: workspace }
  return { name: 'session.tabcode.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(document)) }
}

test('a refused file (a repeated message id, a repeated part id, a reply to no prompt) changes no stored byte and names the problem', async ({ page }) => {
  const app = new Sharing(page)
  await app.open()
  // Something stored already, so "unchanged" is about real rows.
  await app.importFile(sessionFile(3))
  await expect(app.status(IMPORTED)).toBeVisible()
  const before = await storedRows(page)
  expect(before.counts.files).toBeGreaterThan(0)

  const cases: { what: string; edit: (transcript: SessionTranscript) => void; problem: RegExp }[] = [
    {
      what: 'duplicate message ids',
      edit: (t) => (t.messages[1]!.info.id = t.messages[0]!.info.id),
      problem: /\(message msg_[0-9a-zA-Z]+ appears twice\)/,
    },
    {
      what: 'duplicate part ids',
      edit: (t) => (t.messages[1]!.parts[0]!.id = t.messages[0]!.parts[0]!.id),
      problem: /\(part prt_[0-9a-zA-Z]+ appears twice\)/,
    },
    {
      what: 'a reply answering no prompt',
      edit: (t) => t.messages.splice(0, 1),
      problem: /\(reply msg_[0-9a-zA-Z]+ answers no prompt/,
    },
  ]
  for (const { what, edit, problem } of cases) {
    await app.importFile(sessionFile(20, edit))
    const alert = app.alert(problem)
    await expect(alert, what).toBeVisible()
    await expect(alert, what).toContainText("This file's content is not valid")
    await expect(alert, what).toContainText('Nothing was imported.')
    expect(await storedRows(page), what).toEqual(before)
    await alert.getByRole('button', { name: 'Dismiss' }).click()
  }
})

test('a browser killed while an import of 1,530 workspace files is written keeps none of it; importing again makes one copy', async ({ baseURL }) => {
  const browser = await KillableBrowser.launch(baseURL!)
  try {
    const file = sessionFile(1_530)
    let app = new Sharing(browser.page)
    await app.open()
    // Something stored already, which the kill must not lose either.
    await app.importFile(sessionFile(3, undefined, 'earlier file'))
    await expect(app.status(IMPORTED)).toBeVisible()
    const before = await storedRows(app.page)

    await app.importFile(file)
    // The import holds its Web Lock while it writes: kill the browser as soon as the page sees it held.
    await expect
      .poll(() => app.page.evaluate(async () => !!(await navigator.locks.query()).held?.some((lock) => lock.name === 'tabcode:import')), {
        intervals: [5],
        timeout: 60_000,
      })
      .toBe(true)
    await browser.kill()

    app = new Sharing(await browser.relaunch())
    await app.open()
    const afterKill = await storedRows(app.page)
    // No project, no file rows, no blobs, no session, message or part of it.
    for (const store of ['projects', 'files', 'blobs', 'sessions', 'messages', 'parts']) expect(afterKill.digest[store], store).toBe(before.digest[store])

    await app.importFile(file)
    await expect(app.status(IMPORTED)).toBeVisible({ timeout: 60_000 })
    const imported = await storedRows(app.page)
    expect(imported.counts.projects).toBe(before.counts.projects! + 1)
    // 1,530 files in 40 folders (the one top folder, src/, is unwrapped as for any dropped folder), each its own blob.
    expect(imported.counts.files).toBe(before.counts.files! + 1_530 + 40)
    expect(imported.counts.blobs).toBe(before.counts.blobs! + 1_530)
    expect(imported.counts.sessions).toBe(before.counts.sessions! + 2)

    // And once more: the same file opens the copy it made.
    await app.importFile(file)
    await expect(app.status('it was opened before, so this is the same copy')).toBeVisible({ timeout: 60_000 })
    expect((await storedRows(app.page)).counts).toEqual(imported.counts)
    expect(browser.problems).toEqual([])
  } finally {
    await browser.dispose()
  }
})
