// Share links and import (issue 6): how long the link of a realistic 100-message text session is, and how long
// importing a file of 10,000 parts takes, both through the worker RPC the UI uses. The inputs are built in the page
// by the app's own bench-data chunk (`window.__tabcode.benchData`), so they are the ones the unit tests measure.
import { size } from './size.mjs'

/** Parts per message of the imported file: 10,000 parts in all in the full run, 1,000 in a smoke run. */
const PARTS_PER_MESSAGE = size(100, 10)

/** `shareLinkChars_100TextMessages`, `importMs_10kParts` and a few figures for information. */
export async function shareAndImport(page, log) {
  const figures = await page.evaluate(async (partsPerMessage) => {
    const hook = window.__tabcode
    const data = await hook.benchData()
    const fixture = data.realisticFixture(hook.projectID)
    await hook.api.writeFixture(fixture)
    const sessionID = fixture.sessions[0].id
    const base = `${location.origin}${location.pathname}`
    const plain = await hook.api.createShareLink({ sessionID, base })
    const encrypted = await hook.api.createShareLink({ sessionID, base, passphrase: 'correct horse battery staple' })
    const file = data.tenThousandPartsFile(partsPerMessage)
    const started = performance.now()
    const imported = await hook.api.importFile({ data: file })
    const importMs = performance.now() - started
    if (imported.kind !== 'session') throw new Error(`the import gave a ${imported.kind}, not a session`)
    const parts = imported.counts.parts
    // A second open of the same link finds the first copy instead of writing another.
    const first = await hook.api.openShareLink({ link: plain.url })
    const again = performance.now()
    const second = await hook.api.openShareLink({ link: plain.url })
    const reopenMs = performance.now() - again
    return {
      chars: plain.chars,
      urlLength: plain.url.length,
      encryptedChars: encrypted.chars,
      importMs,
      parts,
      fileKB: new TextEncoder().encode(file).length / 1024,
      reopenMs,
      same: first.session.id === second.session.id && second.duplicate === true,
      messages: fixture.messages.length,
    }
  }, PARTS_PER_MESSAGE)
  if (figures.messages !== 100) throw new Error(`the realistic session has ${figures.messages} messages, not 100`)
  if (figures.chars !== figures.urlLength) throw new Error(`the link reports ${figures.chars} characters but is ${figures.urlLength} long`)
  const expected = PARTS_PER_MESSAGE * figures.messages
  if (figures.parts !== expected) throw new Error(`the import wrote ${figures.parts} parts, not ${expected}`)
  if (!figures.same) throw new Error('opening the same link twice made a second session')
  log(`  link ${figures.chars} chars (${figures.encryptedChars} with a passphrase); ${figures.parts.toLocaleString('en')}-part import ${Math.round(figures.importMs)} ms`)
  return {
    shareLinkChars_100TextMessages: figures.chars,
    shareLinkCharsEncrypted_100TextMessages: figures.encryptedChars,
    importMs_10kParts: figures.importMs,
    importFileKB_10kParts: figures.fileKB,
    reopenShareLinkMs: figures.reopenMs,
  }
}
