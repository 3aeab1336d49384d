import { describe, expect, it } from 'vitest'
import { pasteAttaches } from './create-attachments'

describe('what a paste does', () => {
  it('attaches a copied image or file, and pastes the text of a rich copy that also holds a picture', () => {
    expect(pasteAttaches({ types: ['Files'], files: 1, text: '' })).toBe(true)
    // "Copy image" in a browser: the picture and its <img> markup.
    expect(pasteAttaches({ types: ['text/html', 'Files'], files: 1, text: '' })).toBe(true)
    // A file copied in the file manager comes with its name as text.
    expect(pasteAttaches({ types: ['text/plain', 'Files'], files: 1, text: 'report.pdf' })).toBe(true)
    // Cells copied from a spreadsheet: text, HTML and a picture of them.
    expect(pasteAttaches({ types: ['text/plain', 'text/html', 'Files'], files: 1, text: 'a\tb' })).toBe(false)
    expect(pasteAttaches({ types: ['text/plain'], files: 0, text: 'hello' })).toBe(false)
  })
})
