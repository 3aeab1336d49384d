import { describe, expect, it } from 'vitest'
import type { FilePart } from '../../../core/schema'
import { fileLabel, isInlineImage } from './file-label'

const file = (patch: Partial<FilePart>): FilePart => ({
  id: 'prt_1',
  sessionID: 'ses_1',
  messageID: 'msg_1',
  type: 'file',
  mime: 'text/plain',
  url: 'file:///workspace/src/index.ts',
  ...patch,
})

describe('fileLabel', () => {
  it('uses the filename, then the source, then the URL', () => {
    expect(fileLabel(file({ filename: 'notes.md' }))).toBe('notes.md')
    expect(fileLabel(file({ source: { type: 'file', path: 'src/a.ts', text: { value: '@a', start: 0, end: 2 } } }))).toBe('src/a.ts')
    expect(fileLabel(file({}))).toBe('index.ts')
    expect(fileLabel(file({ url: 'https://example.com/a%20b.png?x=1' }))).toBe('a b.png')
    expect(fileLabel(file({ url: 'data:text/plain;base64,aGk=' }))).toBe('attachment')
  })
})

describe('isInlineImage', () => {
  it('previews only images we already hold', () => {
    expect(isInlineImage(file({ mime: 'image/png', url: 'data:image/png;base64,AAAA' }))).toBe(true)
    expect(isInlineImage(file({ mime: 'image/png', url: 'https://tracker.example/pixel.png' }))).toBe(false)
    expect(isInlineImage(file({ mime: 'text/plain', url: 'data:image/png;base64,AAAA' }))).toBe(false)
  })
})
