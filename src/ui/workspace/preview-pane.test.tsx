// @vitest-environment happy-dom
// Views with a frame are mounted detached: out of the document a frame never loads.
import { createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import { PreviewPane, type PreviewServer } from './preview-pane'
import { mount } from './test-support'

describe('the preview pane', () => {
  it('says there is nothing to preview until a server is up', () => {
    const container = mount(() => <PreviewPane servers={[]} />)
    expect(container.textContent).toContain('Nothing to preview yet.')
    expect(container.querySelector('iframe')).toBeNull()
  })

  it('shows the newest server, and another one picked by port', () => {
    const [servers] = createSignal<PreviewServer[]>([
      { port: 3000, url: 'http://localhost:3000/' },
      { port: 5173, url: 'http://localhost:5173/' },
    ])
    const container = mount(() => <PreviewPane servers={servers()} />, { detached: true })
    const frame = () => container.querySelector('iframe')!
    expect(frame().getAttribute('src')).toBe('http://localhost:5173/')
    const picker = container.querySelector('select')!
    expect(picker.closest('label')!.textContent).toContain('Port')
    picker.value = '3000'
    picker.dispatchEvent(new Event('change', { bubbles: true }))
    expect(frame().getAttribute('src')).toBe('http://localhost:3000/')
    const link = container.querySelector('a')!
    expect(link.getAttribute('href')).toBe('http://localhost:3000/')
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toBe('noopener noreferrer')
  })

  it('never frames or links anything but a web page', () => {
    const container = mount(() => <PreviewPane servers={[{ port: 1, url: 'javascript:alert(1)' }]} />, { detached: true })
    expect(container.querySelector('iframe')).toBeNull()
    expect(container.querySelector('a')).toBeNull()
  })
})
