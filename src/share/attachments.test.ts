import { describe, expect, test } from 'vitest'
import { attachmentHash, attachmentURL } from '../core/attachments'
import type { Part } from '../core/schema'
import { getBlob, putBlobs } from '../store/blobs'
import { createUserMessage } from '../store/prompt'
import { makeBuilders } from '../testing/fixture-builders'
import { attachmentChars, exportedAttachmentURL, extractAttachments, withPlainAttachments } from './attachments'
import { contentHash } from './hash'
import { exportBackup, exportSession, loadTranscript } from './export'
import { createShareLink } from './link'
import { importFile, importShareLink } from './open'
import { setupShareStore } from './testing/store'

const PIXEL = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
const model = { providerID: 'openai', modelID: 'gpt-test' }

/** A stored session whose prompt has an image attached, as the worker stores one sent from the page. */
async function sessionWithAttachment() {
  const source = await setupShareStore()
  const build = makeBuilders()
  const session = build.session({ projectID: source.projectID })
  await source.context.db.sessions.add(session)
  const hash = await contentHash(PIXEL)
  await putBlobs(source.context, [{ hash, data: PIXEL, size: PIXEL.length }])
  const parts = [
    { type: 'text' as const, text: 'What is this?' },
    { type: 'file' as const, mime: 'image/png', filename: 'pixel.png', url: attachmentURL(hash) },
  ]
  await createUserMessage(source.context, { sessionID: session.id, parts, model })
  return { ...source, sessionID: session.id }
}

const attachmentsOf = (parts: Part[]) => parts.filter((part) => part.type === 'file')

async function expectStoredAttachment(target: Awaited<ReturnType<typeof setupShareStore>>, parts: Part[]) {
  const [file] = attachmentsOf(parts)
  expect(file).toMatchObject({ mime: 'image/png', filename: 'pixel.png' })
  const hash = attachmentHash(file!.type === 'file' ? file!.url : '')
  expect(hash).toMatch(/^[0-9a-f]{64}$/)
  expect((await getBlob(target.context, hash!))?.data).toEqual(PIXEL)
}

describe('attachments in exports, backups and links', () => {
  test('a session file carries the bytes as a data URL, and importing it stores the blob again', async () => {
    const source = await sessionWithAttachment()
    const stored = await source.context.db.parts.toArray()
    expect(attachmentsOf(stored)[0]).toMatchObject({ url: expect.stringMatching(/^tabcode-blob:[0-9a-f]{64}$/) })

    const { document } = await exportSession(source.context, source.sessionID)
    const text = JSON.stringify(document)
    expect(text).toContain(exportedAttachmentURL('image/png', PIXEL))
    expect(text).not.toContain('tabcode-blob:')
    // opencode's format gets a plain data URL: opencode has no blobs.
    expect(JSON.stringify(withPlainAttachments(document.session))).toContain(`data:image/png;base64,`)
    expect(JSON.stringify(withPlainAttachments(document.session))).not.toContain('tabcode=attachment')

    const target = await setupShareStore()
    const outcome = await importFile({ context: target.context, projectID: target.projectID }, text)
    if (outcome.kind !== 'session') throw new Error('expected a session')
    const parts = await target.context.db.parts.where('sessionID').equals(outcome.session.id).toArray()
    await expectStoredAttachment(target, parts)
    // Exported from there again, it is the same document's bytes.
    expect(JSON.stringify((await loadTranscript(target.context, outcome.session.id)).messages)).toContain(exportedAttachmentURL('image/png', PIXEL))
  })

  test('a backup and a share link carry them too', async () => {
    const source = await sessionWithAttachment()
    const backup = await exportBackup(source.context)
    const restored = await setupShareStore()
    const outcome = await importFile({ context: restored.context, projectID: restored.projectID }, JSON.stringify(backup.document))
    expect(outcome.kind).toBe('backup')
    await expectStoredAttachment(restored, await restored.context.db.parts.toArray())

    const transcript = await loadTranscript(source.context, source.sessionID)
    expect(attachmentChars(transcript)).toEqual({ count: 1, chars: exportedAttachmentURL('image/png', PIXEL).length })
    const link = await createShareLink(transcript, { base: 'https://tabcode.example/' })
    const opened = await setupShareStore()
    const imported = await importShareLink({ context: opened.context, projectID: opened.projectID }, link.url)
    const parts = await opened.context.db.parts.where('sessionID').equals(imported.session.id).toArray()
    await expectStoredAttachment(opened, parts)
  })

  test('an attachment whose blob is gone keeps its reference in an export', async () => {
    const source = await sessionWithAttachment()
    await source.context.db.blobs.clear()
    const { document } = await exportSession(source.context, source.sessionID)
    const [file] = attachmentsOf(document.session.messages[0]!.parts)
    expect(file).toMatchObject({ url: expect.stringMatching(/^tabcode-blob:/) })
  })

  test('a data URL an export did not mark (an older import\'s image) comes back as it was', async () => {
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    const legacy = 'data:image/png;base64,iVBORw0KGgo='
    const transcript = {
      info: session,
      messages: [{ info: user, parts: [build.text(user, 'old'), { id: build.ids.ascending('part'), sessionID: session.id, messageID: user.id, type: 'file' as const, mime: 'image/png', url: legacy }] }],
    }
    const { transcript: extracted, blobs } = await extractAttachments(transcript)
    expect(blobs).toEqual([])
    expect(extracted).toEqual(transcript)
    const marked = exportedAttachmentURL('image/png', PIXEL)
    expect(marked.startsWith('data:image/png;tabcode=attachment;base64,')).toBe(true)
  })
})
