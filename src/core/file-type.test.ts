import { describe, expect, it } from 'vitest'
import { checkClaim, describeMismatch, imageType, sniffBytes } from './file-type'

const encode = (text: string) => new TextEncoder().encode(text)
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16])
const GIF = encode('GIF89a\x01\x00')
const WEBP = encode('RIFF\x10\x00\x00\x00WEBPVP8 ')
const PDF = encode('%PDF-1.7\n')
const ZIP = Uint8Array.from([0x50, 0x4b, 3, 4, 20, 0, 0, 0])
const SVG = encode('<svg xmlns="http://www.w3.org/2000/svg"><script>steal()</script></svg>')

describe('what a file is, by its bytes', () => {
  it('knows PNG, JPEG, GIF, WebP, PDF and ZIP by their first bytes, text by its characters, and the rest as other', () => {
    expect([PNG, JPEG, GIF, WEBP, PDF, ZIP, SVG].map(sniffBytes)).toEqual(['png', 'jpeg', 'gif', 'webp', 'pdf', 'zip', 'text'])
    expect(sniffBytes(Uint8Array.from([0, 1, 2, 3]))).toBe('other')
    expect(sniffBytes(Uint8Array.from([0xc3, 0x28]))).toBe('other')
    // A RIFF that is not WebP (a WAV file) is no image.
    expect(sniffBytes(encode('RIFF\x10\x00\x00\x00WAVEfmt '))).toBe('other')
    // A head cut in the middle of a character is still text.
    expect(sniffBytes(encode('é').subarray(0, 1))).toBe('text')
  })

  it('finds a claimed type broken by the bytes, but lets one raster image pass for another, as the type its bytes have', () => {
    const broken = (claimed: string, found: string) => ({ kind: 'broken', mismatch: { claimed, found } })
    expect(checkClaim('application/pdf', ZIP)).toEqual(broken('pdf', 'zip'))
    expect(checkClaim('image/png', SVG)).toEqual(broken('png', 'text'))
    expect(checkClaim('text/plain', PNG)).toEqual(broken('text', 'png'))
    // An SVG is text: a PNG under its name is not what it claims.
    expect(checkClaim('image/svg+xml', PNG)).toEqual(broken('text', 'png'))
    expect(checkClaim('image/png', JPEG)).toEqual({ kind: 'kept', mime: 'image/jpeg' })
    expect(checkClaim('image/webp', WEBP)).toEqual({ kind: 'kept', mime: 'image/webp' })
    expect(checkClaim('application/pdf; name=a.pdf', PDF)).toEqual({ kind: 'kept', mime: 'application/pdf; name=a.pdf' })
    expect(checkClaim('text/markdown', encode('# notes'))).toEqual({ kind: 'kept', mime: 'text/markdown' })
    // A type that promises nothing checkable is not a lie, and an image type that does not is named by its bytes.
    expect(checkClaim('application/octet-stream', ZIP)).toEqual({ kind: 'kept', mime: 'application/octet-stream' })
    expect(checkClaim('image/tiff', PNG)).toEqual({ kind: 'kept', mime: 'image/png' })
    expect(describeMismatch('x.pdf', { claimed: 'pdf', found: 'zip' }, 'it was not sent')).toBe('x.pdf: its bytes are a ZIP archive, not a PDF; it was not sent.')
  })

  it('shows as an image only a claimed image whose bytes are PNG, JPEG, GIF or WebP, with the type the bytes prove', () => {
    expect(imageType('image/png', PNG)).toBe('image/png')
    expect(imageType('image/png', JPEG)).toBe('image/jpeg')
    expect(imageType('image/gif', GIF)).toBe('image/gif')
    expect(imageType('image/webp', WEBP)).toBe('image/webp')
    expect(imageType('image/svg+xml', SVG)).toBeUndefined()
    // An SVG that claims to be a PNG is no more an image than one that says it is an SVG.
    expect(imageType('image/png', SVG)).toBeUndefined()
    expect(imageType('text/html', PNG)).toBeUndefined()
  })

  it('shows nothing a browser renders as a page as an image, whatever it claims', () => {
    for (const [claimed, bytes] of [
      ['image/svg+xml', SVG],
      ['text/html', encode('<script>steal()</script>')],
      ['application/xhtml+xml', encode('<html/>')],
      ['application/xml', encode('<?xml version="1.0"?><x/>')],
      ['application/pdf', PDF],
      ['image/png', SVG],
      ['image/png', PDF],
      ['', encode('<script>steal()</script>')],
    ] as const) {
      expect(imageType(claimed, bytes)).toBeUndefined()
    }
  })
})
