// @vitest-environment happy-dom
import { createRoot, createSignal } from 'solid-js'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createVirtualList, type VirtualList } from './create-virtual-list'

// The DOM here has no layout: a scroller and a list whose geometry the test sets, and a ResizeObserver it calls by hand.
let observed: ((entries: ResizeObserverEntry[]) => void) | undefined
class FakeResizeObserver {
  constructor(callback: (entries: ResizeObserverEntry[]) => void) {
    observed = callback
  }
  observe() {}
  unobserve() {}
  disconnect() {}
}

function geometry(flexDirection: string) {
  const scroller = document.createElement('div')
  const list = document.createElement('div')
  scroller.append(list)
  document.body.append(scroller)
  scroller.style.flexDirection = flexDirection
  const state = { content: 2_000, viewport: 600, offset: 0, writes: [] as number[] }
  // With a bottom origin the offset runs from minus the overflow (top) to 0 (bottom); otherwise from 0 down.
  const reversed = flexDirection === 'column-reverse'
  Object.defineProperty(scroller, 'scrollHeight', { get: () => state.content })
  Object.defineProperty(scroller, 'clientHeight', { get: () => state.viewport })
  Object.defineProperty(scroller, 'scrollTop', {
    get: () => state.offset,
    set: (value: number) => {
      state.writes.push(value)
      const max = state.content - state.viewport
      state.offset = reversed ? Math.min(0, Math.max(-max, value)) : Math.max(0, Math.min(max, value))
    },
  })
  const top = () => (reversed ? state.offset + state.content - state.viewport : state.offset)
  scroller.getBoundingClientRect = () => ({ top: 0 }) as DOMRect
  list.getBoundingClientRect = () => ({ top: -top() }) as DOMRect
  return { scroller, list, state }
}

describe('createVirtualList, following the end', () => {
  beforeEach(() => vi.stubGlobal('ResizeObserver', FakeResizeObserver))
  afterEach(() => {
    vi.unstubAllGlobals()
    document.body.replaceChildren()
  })

  const follow = (flexDirection: string) => {
    const { scroller, list, state } = geometry(flexDirection)
    const [ids] = createSignal(['a', 'b', 'c'])
    const row = document.createElement('div')
    let dispose!: () => void
    createRoot((done) => {
      dispose = done
      const virtual = createVirtualList({ ids, scroller: () => scroller, list: () => list })
      virtual.observe(row, 'c')
    })
    // Mounted at the end; then the last row grows three times, as a streamed reply does.
    if (flexDirection !== 'column-reverse') state.offset = state.content - state.viewport
    state.writes = []
    for (const height of [400, 500, 600]) {
      state.content += 100
      if (flexDirection !== 'column-reverse') state.offset = Math.min(state.offset, state.content - state.viewport)
      observed!([{ target: row, borderBoxSize: [{ blockSize: height }] } as unknown as ResizeObserverEntry])
    }
    dispose()
    return state
  }

  test('with the scroll origin at the bottom, a growing reply stays in view with no scroll of ours', () => {
    const state = follow('column-reverse')
    expect(state.writes).toEqual([])
    expect(state.offset).toBe(0)
  })

  test('with the origin at the top, the list scrolls to the end after each growth', () => {
    const state = follow('column')
    expect(state.writes.length).toBe(3)
    expect(state.offset).toBe(state.content - state.viewport)
  })
})

describe('createVirtualList, revealing a row', () => {
  beforeEach(() => vi.stubGlobal('ResizeObserver', FakeResizeObserver))
  afterEach(() => {
    vi.unstubAllGlobals()
    document.body.replaceChildren()
  })
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve))

  test('holds a revealed row where it was put while the rows above it are measured, until the reader scrolls', async () => {
    const { scroller, list, state } = geometry('column')
    state.content = 5_000
    const [ids] = createSignal(['a', 'b', 'c'])
    const above = document.createElement('div')
    let virtual!: VirtualList
    let dispose!: () => void
    createRoot((done) => {
      dispose = done
      virtual = createVirtualList({ ids, scroller: () => scroller, list: () => list })
      virtual.observe(above, 'a')
    })
    const measure = (height: number) => observed!([{ target: above, borderBoxSize: [{ blockSize: height }] } as unknown as ResizeObserverEntry])
    measure(1_000)

    // A search hit on b: its top a third of the way down the 600 px viewport.
    virtual.reveal('b')
    await nextFrame()
    expect(state.offset).toBe(1_000 - 200)
    // The row above it turns out taller once rendered in full (an image, a long output): b stays where it was put.
    measure(1_500)
    expect(state.offset).toBe(1_500 - 200)

    // Once the reader scrolls, the row at the top of their view is what holds still.
    scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: 100 }))
    state.offset = 1_400
    scroller.dispatchEvent(new Event('scroll'))
    measure(1_600)
    expect(state.offset).toBe(1_400)
    dispose()
  })
})
