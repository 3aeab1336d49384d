import { describe, expect, it } from 'vitest'
import {
  admitAttachments,
  attachedParts,
  attachmentHash,
  attachmentKind,
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
    expect(attachmentKind('image/png')).toBe('image')
    expect(attachmentKind('image/webp')).toBe('image')
    expect(attachmentKind('application/pdf')).toBe('pdf')
    expect(attachmentKind('text/markdown')).toBe('text')
    expect(attachmentKind('application/json')).toBe('text')
    expect(attachmentKind('image/svg+xml')).toBe('text')
    expect(attachmentKind('image/tiff', encode('II*'))).toBe('unreadable')
    expect(attachmentKind('application/zip', Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]))).toBe('unreadable')
    // No type from the browser, but the bytes are UTF-8 text (a `.rs` file).
    expect(attachmentKind('application/octet-stream', encode('fn main() {}'))).toBe('text')
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
