import { describe, expect, it } from 'vitest'
import { anchorAt, bottomTop, computeWindow, keepMounted, makeRowLayout, topForAnchor, type WindowInput } from './virtual-window'

const ids = (count: number, from = 0) => Array.from({ length: count }, (_, index) => `m${String(from + index).padStart(5, '0')}`)

const input = (top: number, extra: Partial<WindowInput> = {}): WindowInput => ({
  top,
  height: 500,
  overscan: 0,
  maxRows: 60,
  prefer: 'start',
  ...extra,
})

describe('makeRowLayout', () => {
  it('estimates unmeasured rows and sums offsets', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(5))
    expect(layout.total()).toBe(500)
    expect(layout.offset(3)).toBe(300)
    expect(layout.indexAt(0)).toBe(0)
    expect(layout.indexAt(299)).toBe(2)
    expect(layout.indexAt(300)).toBe(3)
    expect(layout.indexAt(10_000)).toBe(4)
    expect(layout.indexAt(-50)).toBe(0)
  })

  it('uses measured heights, and the mean of them as the estimate once asked to', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(4))
    expect(layout.measure('m00000', 40)).toBe(true)
    // Measuring alone keeps the estimate: the other rows stay at 100.
    expect(layout.total()).toBe(340)
    expect(layout.refreshEstimate()).toBe(true)
    // The estimate is now 40 for every other row.
    expect(layout.total()).toBe(160)
    layout.measure('m00001', 60)
    expect(layout.refreshEstimate()).toBe(true)
    expect(layout.total()).toBe(40 + 60 + 50 + 50)
    expect(layout.measure('m00001', 60)).toBe(false)
    expect(layout.refreshEstimate()).toBe(false)
    expect(layout.measured('m00001')).toBe(true)
    expect(layout.measured('m00002')).toBe(false)
  })

  it('does not move the rows above when a row appended at the end is measured', () => {
    // A long session: the rows above the mounted ones are estimated, the mounted ones (40 to 49) measured.
    const layout = makeRowLayout(100)
    layout.setRows(ids(50))
    for (const id of ids(10, 40)) layout.measure(id, 80)
    layout.refreshEstimate()
    const firstMounted = layout.offset(40)
    expect(firstMounted).toBe(40 * 80)
    // A new message at the end, much shorter than the rest.
    layout.setRows(ids(51))
    layout.measure('m00050', 20)
    expect(layout.offset(40)).toBe(firstMounted)
    expect(layout.total()).toBe(firstMounted + 11 * 80 - 60)
    // When the caller takes the estimate again, the new row counts.
    expect(layout.refreshEstimate()).toBe(true)
    expect(layout.offset(40)).toBeCloseTo((40 * (10 * 80 + 20)) / 11, 6)
  })

  it('keeps measured heights by id when rows are prepended', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(2, 10))
    layout.measure('m00010', 30)
    layout.measure('m00011', 70)
    layout.refreshEstimate()
    layout.setRows([...ids(3, 7), ...ids(2, 10)])
    expect(layout.indexOf('m00010')).toBe(3)
    // Three new rows at the estimate (50), then the two measured ones.
    expect(layout.offset(3)).toBe(150)
    expect(layout.total()).toBe(250)
  })

  it('re-measuring the last row does not change the estimate for the others', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(3))
    layout.measure('m00002', 100)
    layout.measure('m00002', 400)
    expect(layout.offset(2)).toBe(200)
    expect(layout.total()).toBe(600)
  })

  it('forgets rows that left', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(2))
    layout.measure('m00000', 10)
    layout.refreshEstimate()
    expect(layout.total()).toBe(20)
    layout.setRows(ids(2, 5))
    expect(layout.measured('m00000')).toBe(false)
    // Nothing is measured any more: the next estimate is the default again.
    expect(layout.refreshEstimate()).toBe(true)
    expect(layout.total()).toBe(200)
  })

  it('is empty without rows', () => {
    const layout = makeRowLayout(100)
    expect(layout.indexAt(0)).toBe(-1)
    expect(layout.total()).toBe(0)
  })
})

describe('computeWindow', () => {
  it('mounts the visible rows plus the overscan', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(100))
    expect(computeWindow(layout, input(1000))).toEqual({ start: 10, end: 15 })
    expect(computeWindow(layout, input(1050, { overscan: 200 }))).toEqual({ start: 8, end: 18 })
    expect(computeWindow(layout, input(0, { overscan: 200 }))).toEqual({ start: 0, end: 7 })
    expect(computeWindow(layout, input(9500, { overscan: 200 }))).toEqual({ start: 93, end: 100 })
  })

  it('never mounts more than the cap, whatever the row heights', () => {
    const layout = makeRowLayout(10)
    layout.setRows(ids(10_000))
    for (const top of [0, 5000, 50_000, 99_500]) {
      const range = computeWindow(layout, input(top, { overscan: 1000, height: 800 }))
      expect(range.end - range.start).toBeLessThanOrEqual(60)
      expect(range.start).toBeLessThanOrEqual(layout.indexAt(top))
    }
  })

  it('keeps the bottom when even the visible rows exceed the cap and the list follows a stream', () => {
    const layout = makeRowLayout(5)
    layout.setRows(ids(1000))
    const top = bottomTop(layout, 500)
    expect(computeWindow(layout, input(top, { prefer: 'end' }))).toEqual({ start: 940, end: 1000 })
    expect(computeWindow(layout, input(0, { prefer: 'start' }))).toEqual({ start: 0, end: 60 })
  })

  it('shares the cap between both sides of the viewport', () => {
    const layout = makeRowLayout(10)
    layout.setRows(ids(1000))
    const range = computeWindow(layout, input(5000, { height: 100, overscan: 1000 }))
    expect(range.end - range.start).toBe(60)
    expect(range.start).toBeLessThan(500)
    expect(range.end).toBeGreaterThan(510)
  })

  it('fills up to the minimum around the viewport, never past the cap or the list', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(8))
    expect(computeWindow(layout, input(300, { minRows: 30 }))).toEqual({ start: 0, end: 8 })
    layout.setRows(ids(1000))
    expect(computeWindow(layout, input(50_000, { minRows: 30 }))).toEqual({ start: 488, end: 518 })
    expect(computeWindow(layout, input(bottomTop(layout, 500), { minRows: 30, prefer: 'end' }))).toEqual({ start: 970, end: 1000 })
    expect(computeWindow(layout, input(0, { minRows: 100 }))).toEqual({ start: 0, end: 60 })
  })

  it('is empty for an empty list', () => {
    expect(computeWindow(makeRowLayout(10), input(0))).toEqual({ start: 0, end: 0 })
  })
})

describe('keepMounted', () => {
  it('keeps the rows above mounted when a row is appended at the end, so they do not move', () => {
    expect(keepMounted({ start: 70, end: 100 }, { start: 71, end: 101 }, 60)).toEqual({ start: 70, end: 101 })
  })

  it('takes the computed window once keeping would pass the cap', () => {
    expect(keepMounted({ start: 40, end: 100 }, { start: 71, end: 101 }, 60)).toEqual({ start: 71, end: 101 })
  })

  it('takes the computed window when it moved off the mounted rows, or when nothing was mounted', () => {
    expect(keepMounted({ start: 0, end: 30 }, { start: 50, end: 80 }, 60)).toEqual({ start: 50, end: 80 })
    expect(keepMounted({ start: 0, end: 0 }, { start: 20, end: 50 }, 60)).toEqual({ start: 20, end: 50 })
  })
})

describe('anchors', () => {
  it('holds the row at the top in place when older rows are prepended', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(50, 50))
    const anchor = anchorAt(layout, 1030)!
    expect(anchor).toEqual({ id: 'm00060', delta: -30 })
    layout.setRows([...ids(50), ...ids(50, 50)])
    expect(topForAnchor(layout, anchor)).toBe(6030)
  })

  it('holds it when a row above is measured taller than estimated', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(20))
    for (const id of ids(20)) layout.measure(id, 100)
    const anchor = anchorAt(layout, 1000)!
    layout.measure('m00003', 340)
    expect(topForAnchor(layout, anchor)).toBe(1240)
    // A new estimate moves every unmeasured row, and the anchor follows that too.
    const fresh = makeRowLayout(100)
    fresh.setRows(ids(20))
    const held = anchorAt(fresh, 1000)!
    fresh.measure('m00003', 340)
    fresh.refreshEstimate()
    expect(topForAnchor(fresh, held)).toBe(fresh.offset(10))
    expect(fresh.offset(10)).toBe(340 * 10)
  })

  it('gives up when the anchor row is gone', () => {
    const layout = makeRowLayout(100)
    layout.setRows(ids(3))
    const anchor = anchorAt(layout, 150)!
    layout.setRows(ids(3, 10))
    expect(topForAnchor(layout, anchor)).toBeUndefined()
    expect(anchorAt(makeRowLayout(10), 0)).toBeUndefined()
  })
})
