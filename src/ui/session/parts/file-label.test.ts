import { describe, expect, it } from 'vitest'
import type { FilePart } from '../../../core/schema'
import { fileLabel, inlineImage } from './file-label'

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

describe('inlineImage', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUg=='
  it('previews only raster images we already hold, with the type their bytes prove', () => {
    expect(inlineImage(file({ mime: 'image/png', url: `data:image/png;base64,${PNG}` }))).toBe(`data:image/png;base64,${PNG}`)
    expect(inlineImage(file({ mime: 'image/png', url: 'https://tracker.example/pixel.png' }))).toBeUndefined()
    expect(inlineImage(file({ mime: 'text/plain', url: `data:image/png;base64,${PNG}` }))).toBeUndefined()
  })

  it('never previews an SVG, or bytes that only claim to be an image', () => {
    const svg = btoa('<svg xmlns="http://www.w3.org/2000/svg" onload="steal()"/>')
    expect(inlineImage(file({ mime: 'image/svg+xml', url: `data:image/svg+xml;base64,${svg}` }))).toBeUndefined()
    expect(inlineImage(file({ mime: 'image/png', url: `data:image/png;base64,${svg}` }))).toBeUndefined()
    expect(inlineImage(file({ mime: 'image/svg+xml', url: `data:image/svg+xml,${encodeURIComponent('<svg/>')}` }))).toBeUndefined()
  })
})
