/**
 * The arithmetic of the virtualised message list, free of the DOM so it can be tested: row heights (measured or
 * estimated) with prefix sums, the window of rows to mount for a viewport, and the anchor that keeps what the reader
 * looks at in place when rows above it change (older pages prepended, estimates replaced by measurements).
 *
 * Coordinates are "list coordinates": 0 is the top of the first row.
 */

export interface RowLayout {
  /** Sets the rows, in order. Heights measured before are kept by id; new rows start at the estimate. */
  setRows(ids: readonly string[]): void
  /** Records a row's measured height; returns whether anything moved. */
  measure(id: string, height: number): boolean
  /**
   * Makes the mean of the measured heights the estimate for unmeasured rows, if rows were first measured (or left)
   * since the last call; returns whether anything moved.
   */
  refreshEstimate(): boolean
  count(): number
  idAt(index: number): string | undefined
  indexOf(id: string): number
  /** Top of row `index`; `offset(count())` is the total height. */
  offset(index: number): number
  total(): number
  /** The row containing `y` (clamped to the first and last row); -1 when there are none. */
  indexAt(y: number): number
  /** Whether the row's height was measured (rather than estimated). */
  measured(id: string): boolean
}

/**
 * Heights with lazily recomputed prefix sums. A changed height only dirties the offsets from its own row down, so
 * re-measuring the streaming row at the bottom costs O(1) however long the session is.
 *
 * The estimate for unmeasured rows is the mean of the rows measured so far, but it changes only when the caller asks
 * (`refreshEstimate`), never as a side effect of measuring a row. A new estimate moves every row below the
 * unmeasured ones, that is every mounted row of a long session: the browser then re-walks the whole mounted tree
 * (~10 ms for a 2,000-message session), and measuring each new message appended at the end would pay that for
 * nothing the reader sees.
 */
export function makeRowLayout(defaultEstimate: number): RowLayout {
  let ids: readonly string[] = []
  let index = new Map<string, number>()
  const heights = new Map<string, number>()
  let measuredSum = 0
  let estimate = defaultEstimate
  /** Rows were first measured, or measured rows left, since the estimate was last taken. */
  let stale = false
  let offsets: number[] = [0]
  let validUpTo = 0

  const heightOf = (id: string) => heights.get(id) ?? estimate
  const invalidate = (from: number) => {
    validUpTo = Math.min(validUpTo, from)
  }
  const ensure = (upTo: number) => {
    if (upTo <= validUpTo) return
    for (let row = validUpTo; row < upTo; row++) offsets[row + 1] = offsets[row]! + heightOf(ids[row]!)
    validUpTo = upTo
  }

  const layout: RowLayout = {
    setRows(next) {
      ids = next
      index = new Map(next.map((id, position) => [id, position]))
      offsets = new Array<number>(next.length + 1)
      offsets[0] = 0
      validUpTo = 0
      // Forget rows that left, so the next estimate follows the rows still here.
      for (const id of [...heights.keys()]) {
        if (!index.has(id)) {
          measuredSum -= heights.get(id)!
          heights.delete(id)
          stale = true
        }
      }
    },
    measure(id, height) {
      const previous = heights.get(id)
      if (previous === height) return false
      const position = index.get(id)
      heights.set(id, height)
      measuredSum += height - (previous ?? 0)
      // Only a first measurement counts towards the estimate: re-measuring the streaming row must not move the rest.
      if (previous === undefined) stale = true
      if (position !== undefined) invalidate(position)
      return true
    },
    refreshEstimate() {
      if (!stale) return false
      stale = false
      const next = heights.size ? measuredSum / heights.size : defaultEstimate
      if (next === estimate) return false
      estimate = next
      invalidate(0)
      return true
    },
    count: () => ids.length,
    idAt: (position) => ids[position],
    indexOf: (id) => index.get(id) ?? -1,
    offset(position) {
      const clamped = Math.max(0, Math.min(position, ids.length))
      ensure(clamped)
      return offsets[clamped]!
    },
    total: () => layout.offset(ids.length),
    indexAt(y) {
      const count = ids.length
      if (count === 0) return -1
      ensure(count)
      let low = 0
      let high = count - 1
      while (low < high) {
        const middle = (low + high + 1) >>> 1
        if (offsets[middle]! <= y) low = middle
        else high = middle - 1
      }
      return low
    },
    measured: (id) => heights.has(id),
  }
  return layout
}

export interface WindowRange {
  /** First mounted row. */
  start: number
  /** One past the last mounted row. */
  end: number
}

export interface WindowInput {
  /** Top of the viewport, in list coordinates (may be negative when content sits above the list). */
  top: number
  height: number
  /** Extra pixels mounted above and below the viewport, so a short scroll shows rows that are already there. */
  overscan: number
  /** Hard cap on mounted rows, whatever the row heights. */
  maxRows: number
  /**
   * Rows to mount at least (up to the cap), nearest the viewport first: a short session is then wholly in the DOM
   * (find in page works on it) and a long one keeps a margin of measured rows around the reader.
   */
  minRows?: number
  /** Which end to keep when the cap cuts even the visible rows: the bottom while following a stream. */
  prefer: 'start' | 'end'
}

export const sameRange = (a: WindowRange, b: WindowRange) => a.start === b.start && a.end === b.end

/** The rows to mount: those in the viewport plus the overscan, never more than `maxRows`. */
export function computeWindow(layout: RowLayout, input: WindowInput): WindowRange {
  const count = layout.count()
  if (count === 0 || input.maxRows <= 0) return { start: 0, end: 0 }
  const bottom = input.top + Math.max(0, input.height)
  const first = layout.indexAt(input.top)
  const last = layout.indexAt(Math.max(input.top, bottom - 1))
  if (last - first + 1 >= input.maxRows) {
    return input.prefer === 'end' ? { start: last + 1 - input.maxRows, end: last + 1 } : { start: first, end: first + input.maxRows }
  }
  let above = first - layout.indexAt(input.top - input.overscan)
  let below = layout.indexAt(bottom - 1 + input.overscan) - last
  // Over the cap: give back overscan from the longer side first, so both sides keep some.
  const budget = input.maxRows - (last - first + 1)
  while (above + below > budget) {
    if (above > below) above--
    else below--
  }
  let start = first - above
  let end = last + 1 + below
  // Fill up to the minimum, one row at a time on alternating sides (rows above first while following the end).
  const wanted = Math.min(input.minRows ?? 0, input.maxRows, count)
  let up = input.prefer === 'end'
  while (end - start < wanted) {
    if ((up && start > 0) || end >= count) start--
    else end++
    up = !up
  }
  return { start, end }
}

/**
 * The rows to mount given the ones mounted now: while the two overlap and together stay within `maxRows`, rows
 * already mounted stay. A reply appended at the end (or a short scroll) then adds rows without taking any away
 * above, so the rows above keep their place in the list and their paint; a window that moved off the mounted
 * rows, or would grow past the cap, is taken as computed.
 */
export function keepMounted(mounted: WindowRange, next: WindowRange, maxRows: number): WindowRange {
  if (mounted.end <= mounted.start || mounted.end < next.start || next.end < mounted.start) return next
  const union = { start: Math.min(mounted.start, next.start), end: Math.max(mounted.end, next.end) }
  return union.end - union.start <= maxRows ? union : next
}

/** A row and where its top sat relative to the viewport's top. */
export interface Anchor {
  id: string
  /** Row top minus viewport top, in pixels (≤ 0 for the row the viewport's top edge cuts). */
  delta: number
}

/** The row at the viewport's top edge, to hold in place across changes above it. */
export function anchorAt(layout: RowLayout, top: number): Anchor | undefined {
  const position = layout.indexAt(Math.max(0, top))
  const id = position >= 0 ? layout.idAt(position) : undefined
  if (id === undefined) return undefined
  return { id, delta: layout.offset(position) - top }
}

/** The viewport top that puts the anchor row back where it was; undefined when the row is gone. */
export function topForAnchor(layout: RowLayout, anchor: Anchor): number | undefined {
  const position = layout.indexOf(anchor.id)
  if (position < 0) return undefined
  return layout.offset(position) - anchor.delta
}

/** The viewport top that shows the end of the list. */
export function bottomTop(layout: RowLayout, viewportHeight: number): number {
  return Math.max(0, layout.total() - viewportHeight)
}
