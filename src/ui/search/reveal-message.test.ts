// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { revealMessage } from './reveal-message'

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve))

afterEach(() => {
  document.body.replaceChildren()
})

describe('reveal message', () => {
  it('waits for the message row to render, then scrolls it into view and marks it', async () => {
    const scroller = document.createElement('div')
    scroller.className = 'message-scroller'
    const wheel = vi.fn()
    scroller.addEventListener('wheel', wheel)
    document.body.append(scroller)
    revealMessage('msg_b')
    await nextFrame()
    const row = document.createElement('div')
    row.setAttribute('data-message-row', 'msg_b')
    const scrolled = vi.fn()
    row.scrollIntoView = scrolled
    scroller.append(row)
    await nextFrame()
    await nextFrame()
    expect(scrolled).toHaveBeenCalledWith({ block: 'center' })
    expect(row.hasAttribute('data-search-target')).toBe(true)
    // The conversation stops following its end, so it does not pull the view back down.
    expect(wheel).toHaveBeenCalledOnce()
  })

  it('gives up quietly when the message never renders (a row removed before it rendered)', async () => {
    let clock = 0
    const stop = revealMessage('msg_missing', { now: () => clock })
    clock = 10_000
    await nextFrame()
    await nextFrame()
    const row = document.createElement('div')
    row.setAttribute('data-message-row', 'msg_missing')
    row.scrollIntoView = vi.fn()
    document.body.append(row)
    await nextFrame()
    expect(row.scrollIntoView).not.toHaveBeenCalled()
    stop()
  })
})
