import { describe, expect, it } from 'vitest'
import {
  admitAttachments,
  attachedParts,
  attachmentHash,
  attachmentMismatch,
  attachmentUse,
  dataURLHead,
  attachmentMime,
  attachmentProblem,
  attachmentURL,
  fromDataURL,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  toDataURL,
} from './attachments'

const HASH = 'ab'.repeat(32)
const encode = (text: string) => new TextEncoder().encode(text)

describe('attachments', () => {
  it('names a blob by its SHA-256 and reads the hash back only from such a URL', () => {
    expect(attachmentURL(HASH)).toBe(`tabcode-blob:${HASH}`)
    expect(attachmentHash(attachmentURL(HASH))).toBe(HASH)
    for (const url of ['data:image/png;base64,AAAA', 'file:///a.png', 'tabcode-blob:short', `tabcode-blob:${HASH.toUpperCase()}`]) {
      expect(attachmentHash(url)).toBeUndefined()
    }
  })

  it('refuses an empty file and one over the size limit, saying which and why', () => {
    expect(attachmentProblem({ name: 'a.png', size: 10 })).toBeUndefined()
    expect(attachmentProblem({ name: 'a.png', size: MAX_ATTACHMENT_BYTES })).toBeUndefined()
    expect(attachmentProblem({ name: 'big.mov', size: 25 * 1024 * 1024 })).toBe('big.mov is 25.0 MB: an attachment can be at most 10.0 MB.')
    expect(attachmentProblem({ name: 'empty.txt', size: 0 })).toBe('empty.txt is empty: there is nothing to attach.')
  })

  it('keeps the files that fit and names the others, up to the count limit', () => {
    const file = (name: string, size = 1) => ({ name, size })
    const result = admitAttachments(MAX_ATTACHMENTS - 1, [file('a.png'), file('huge.bin', MAX_ATTACHMENT_BYTES + 1), file('b.png'), file('c.png')])
    expect(result.accepted.map((entry) => entry.name)).toEqual(['a.png'])
    expect(result.problems).toEqual([
      'huge.bin is 10.0 MB: an attachment can be at most 10.0 MB.',
      `A prompt takes at most ${MAX_ATTACHMENTS} attachments: b.png, c.png were not attached.`,
    ])
    expect(admitAttachments(0, [file('a.png'), file('b.png')])).toEqual({ accepted: [file('a.png'), file('b.png')], problems: [] })
  })

  it('sends images and PDFs as themselves, text as text, and the rest not at all', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])
    const webp = encode('RIFF\0\0\0\0WEBPVP8 ')
    expect(attachmentUse('image/png', png)).toEqual({ kind: 'image', mime: 'image/png' })
    expect(attachmentUse('image/webp', webp)).toEqual({ kind: 'image', mime: 'image/webp' })
    expect(attachmentUse('application/pdf', encode('%PDF-1.4\n'))).toEqual({ kind: 'pdf' })
    expect(attachmentUse('text/markdown', encode('# notes'))).toEqual({ kind: 'text' })
    expect(attachmentUse('application/json', encode('{}'))).toEqual({ kind: 'text' })
    expect(attachmentUse('image/svg+xml', encode('<svg/>'))).toEqual({ kind: 'text' })
    expect(attachmentUse('image/tiff', encode('II*\0'))).toEqual({ kind: 'unreadable' })
    // A file of another image type whose bytes are a PNG goes as the PNG it is, as the read tool and a data URL would send it.
    expect(attachmentUse('image/tiff', png)).toEqual({ kind: 'image', mime: 'image/png' })
    expect(attachmentUse('application/zip', Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]))).toEqual({ kind: 'unreadable' })
    // No type from the browser, but the bytes are UTF-8 text (a `.rs` file).
    expect(attachmentUse('application/octet-stream', encode('fn main() {}'))).toEqual({ kind: 'text' })
  })

  it('refuses a file whose bytes are not what its type claims, and says what they are', () => {
    const zip = Uint8Array.from([0x50, 0x4b, 3, 4, 20, 0])
    expect(attachmentUse('application/pdf', zip)).toEqual({ kind: 'refused', mismatch: { claimed: 'pdf', found: 'zip' } })
    expect(attachmentUse('image/png', encode('just words'))).toEqual({ kind: 'refused', mismatch: { claimed: 'png', found: 'text' } })
    expect(attachmentUse('image/svg+xml', zip)).toEqual({ kind: 'refused', mismatch: { claimed: 'text', found: 'zip' } })
    expect(attachmentMismatch('report.pdf', 'application/pdf', zip, 'it was not attached')).toBe('report.pdf: its bytes are a ZIP archive, not a PDF; it was not attached.')
    expect(attachmentMismatch('notes.txt', 'text/plain', encode('milk'), 'it was not attached')).toBeUndefined()
  })

  it('takes the browser type, else guesses from the extension', () => {
    expect(attachmentMime('a.png', 'image/png')).toBe('image/png')
    expect(attachmentMime('photo.JPG', '')).toBe('image/jpeg')
    expect(attachmentMime('Makefile', '')).toBe('application/octet-stream')
  })

  it('round-trips bytes through a base64 data URL', () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, index) => index % 256)
    const url = toDataURL('application/octet-stream', bytes)
    expect(fromDataURL(url)).toEqual({ mime: 'application/octet-stream', bytes })
    expect(fromDataURL('data:image/png;tabcode=attachment;base64,AQID')).toEqual({ mime: 'image/png', bytes: Uint8Array.from([1, 2, 3]) })
    expect(fromDataURL('data:text/plain,hello')).toBeUndefined()
    expect(fromDataURL('data:image/png;base64,@@@')).toBeUndefined()
  })

  it('decodes only the head of a long data URL, whitespace in its base64 or not', () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, index) => index % 256)
    expect(dataURLHead(toDataURL('image/png', bytes), 10)).toEqual(bytes.subarray(0, 10))
    const wrapped = toDataURL('image/png', bytes).replace(/(.{76})/g, '$1\n')
    expect(dataURLHead(wrapped, 100)).toEqual(bytes.subarray(0, 100))
    expect(dataURLHead('data:image/svg+xml,<svg/>')).toBeUndefined()
  })

  it('gives a stored prompt\'s attachments back as prompt parts, not a mention\'s files', () => {
    const base = { id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1' }
    const parts = [
      { ...base, type: 'text', text: 'see' },
      { ...base, type: 'file', mime: 'image/png', filename: 'a.png', url: attachmentURL(HASH) },
      { ...base, type: 'file', mime: 'image/png', url: 'data:image/png;base64,AAAA', source: { type: 'file', path: '/workspace/b.png', text: { value: '@b.png', start: 0, end: 6 } } },
    ] as Parameters<typeof attachedParts>[0]
    expect(attachedParts(parts)).toEqual([{ type: 'file', mime: 'image/png', filename: 'a.png', url: attachmentURL(HASH) }])
  })
})
