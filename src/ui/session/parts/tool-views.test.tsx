// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSignal } from 'solid-js'
import { render } from 'solid-js/web'
import { ReadLines } from './tool-views'

// The highlighter stands in for CodeMirror's: every call is counted, and `export` comes back as a keyword.
const highlighted: string[] = []
vi.mock('../../kit/code/highlight', () => ({
  highlightTokens: async (code: string) => {
    highlighted.push(code)
    return code.split(/(export)/).filter(Boolean).map((text) => ({ text, classes: text === 'export' ? 'tok-keyword' : '' }))
  },
}))

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  highlighted.length = 0
})

function mount() {
  const [shown, setShown] = createSignal(false)
  const container = document.createElement('div')
  document.body.append(container)
  const content = { lines: [{ number: 1, text: 'export const price = 12' }, { number: 2, text: 'export const tax = 2' }], note: undefined }
  const dispose = render(() => <ReadLines content={content} file="src/price.ts" shown={shown()} />, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  return { container, setShown }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("a read card's lines", () => {
  it('are shown as plain text while folded, and nothing highlights them until they are opened', async () => {
    const { container, setShown } = mount()
    await settle()
    expect([...container.querySelectorAll('.read-line')].map((line) => line.textContent)).toEqual(['1export const price = 12', '2export const tax = 2'])
    expect(highlighted).toEqual([])
    expect(container.querySelector('.tok-keyword')).toBeNull()

    setShown(true)
    await vi.waitFor(() => expect(container.querySelector('.read-lines')?.getAttribute('data-highlighted')).toBe('true'))
    expect(highlighted).toEqual(['export const price = 12\nexport const tax = 2'])
    expect(container.querySelector('.read-text .tok-keyword')?.textContent).toBe('export')

    // Folded again, the colours stay, and opening once more does not highlight a second time.
    setShown(false)
    await settle()
    expect(container.querySelector('.tok-keyword')).not.toBeNull()
    setShown(true)
    await settle()
    expect(highlighted).toHaveLength(1)
  })
})
