import { describe, expect, it } from 'vitest'
import { previewMode } from './script-grant'

describe('the grant to run a preview page', () => {
  it('holds for the document the user ran, and not before they run it', () => {
    expect(previewMode(new Map(), '/index.html', 'a')).toEqual({ scripts: 'inert', changed: false })
    expect(previewMode(new Map([['/index.html', 'a']]), '/index.html', 'a')).toEqual({ scripts: 'run' })
  })

  it('ends when the page or anything it runs changed since, and says so', () => {
    expect(previewMode(new Map([['/index.html', 'a']]), '/index.html', 'b')).toEqual({ scripts: 'inert', changed: true })
  })

  it('is for that page only', () => {
    expect(previewMode(new Map([['/index.html', 'a']]), '/about.html', 'a')).toEqual({ scripts: 'inert', changed: false })
  })
})
