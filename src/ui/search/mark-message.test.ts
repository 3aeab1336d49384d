// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { markMessage } from './mark-message'

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve))

afterEach(() => {
  document.body.replaceChildren()
})

describe('mark message', () => {
  it('waits for the message row to render, then marks it', async () => {
    markMessage('msg_b')
    await nextFrame()
    const row = document.createElement('div')
    row.setAttribute('data-message-row', 'msg_b')
    document.body.append(row)
    expect(row.hasAttribute('data-search-target')).toBe(false)
    await nextFrame()
    await nextFrame()
    expect(row.hasAttribute('data-search-target')).toBe(true)
  })

  it('gives up quietly when the message never renders (a row removed before it rendered)', async () => {
    let clock = 0
    const stop = markMessage('msg_missing', { now: () => clock })
    clock = 10_000
    await nextFrame()
    await nextFrame()
    const row = document.createElement('div')
    row.setAttribute('data-message-row', 'msg_missing')
    document.body.append(row)
    await nextFrame()
    expect(row.hasAttribute('data-search-target')).toBe(false)
    stop()
  })
})
