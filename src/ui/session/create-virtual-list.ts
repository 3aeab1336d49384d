import { createComputed, createSignal, on, onCleanup, onMount, type Accessor } from 'solid-js'
import { sameItems } from '../kit/same-items'
import {
  anchorAt,
  bottomTop,
  computeWindow,
  keepMounted,
  makeRowLayout,
  sameRange,
  topForAnchor,
  type Anchor,
  type WindowRange,
} from './virtual-window'

/** However long the session, at most this many messages are in the DOM, so a long session renders like a short one. */
export const MAX_MOUNTED_ROWS = 60
/** Short sessions stay wholly mounted (find in page, screen readers browsing the log); long ones keep a margin. */
export const MIN_MOUNTED_ROWS = 30
const ESTIMATED_ROW_PX = 120
/** Within this distance of the end, the reader is "at the bottom" and the list follows new content. */
const FOLLOW_THRESHOLD_PX = 48

export interface VirtualListOptions {
  ids: Accessor<readonly string[]>
  /** The scrolling element. */
  scroller: () => HTMLElement | undefined
  /** The element the rows sit in: its padding holds the space of unmounted rows. */
  list: () => HTMLElement | undefined
  /** Called when the reader reaches the top of what is loaded (load the previous page). */
  onReachTop?: () => void
  maxRows?: number
}

export interface VirtualList {
  /** The ids to mount, in order. */
  visible: Accessor<string[]>
  /** Space of the rows above and below the mounted ones, in pixels. */
  padding: Accessor<{ top: number; bottom: number }>
  /** Whether the list sticks to the bottom (the reader is there): streaming text and new messages keep it there. */
  following: Accessor<boolean>
  /** Call from a row's `ref`: its height is measured while it is mounted. */
  observe(element: HTMLElement, id: string): void
  scrollToBottom(): void
  /** Stops following the end and mounts the rows around this one, with it a third of the way down the viewport. */
  reveal(id: string): void
}

/**
 * A bottom-anchored, variable-height virtual list for the conversation (pure math in virtual-window.ts).
 *
 * - Rows are measured with a ResizeObserver; unmeasured ones count at the mean measured height.
 * - While following, every change (a new message, a streamed line) keeps the end in view. Once the reader scrolls
 *   up, the row at the top of the viewport is the anchor: when rows above it change (an older page prepended, an
 *   estimate replaced by a measurement) the scroll position moves by exactly that much, so nothing moves on screen.
 * - Mounting happens on id changes and scrolls. A resize callback only re-anchors and pads; if it would change the
 *   window it asks for the next frame, because rows mounted inside a ResizeObserver callback cannot be measured
 *   in that frame (the browser reports "ResizeObserver loop completed with undelivered notifications").
 */
export function createVirtualList(options: VirtualListOptions): VirtualList {
  const maxRows = options.maxRows ?? MAX_MOUNTED_ROWS
  const layout = makeRowLayout(ESTIMATED_ROW_PX)
  const [visible, setVisible] = createSignal<string[]>([], { equals: sameItems })
  const [padding, setPadding] = createSignal({ top: 0, bottom: 0 }, { equals: (a, b) => a.top === b.top && a.bottom === b.bottom })
  const [following, setFollowing] = createSignal(true)
  let range: WindowRange = { start: 0, end: 0 }
  let anchor: Anchor | undefined
  let frame = 0
  /** Where the last follow put the viewport; a scroll event at or below it is that scroll, not the reader's. */
  let followedTop = -1
  /** Where the last correction of a reader's place put the scroll offset; its scroll event is not the reader's. */
  let correctedTo: number | undefined
  const rows = new Map<Element, string>()
  /** Whether the estimate for unmeasured rows has been taken from measured ones yet. */
  let sampled = false
  /**
   * A row asked for by `reveal`, held where it was put until the reader does something in the list (a wheel, a
   * touch, a press, a key). Kept apart from `anchor`, which every scroll event retakes, including those of pages just
   * loaded above. Held past the first pass because that pass places it by estimated heights: when the rows around it
   * are measured a frame later, an anchor taken then would put the view back where the estimates said.
   */
  let revealing: Anchor | undefined
  /**
   * Whether the scroller's scroll origin is its bottom (`flex-direction: column-reverse` in session.css): content
   * growing at the end then leaves the view where it is, so following a streamed reply needs no scroll of ours (no
   * scroll event, no second frame per update). Its scrollTop runs from minus the overflow (top) to 0 (bottom).
   */
  let reversed = false
  /** The viewport's distance from the top of the content, wherever the scroll origin is. */
  const topOf = (scroller: HTMLElement) => (reversed ? scroller.scrollTop + scroller.scrollHeight - scroller.clientHeight : scroller.scrollTop)
  /** The viewport's distance from the end of the content. */
  const gapBelow = (scroller: HTMLElement) =>
    reversed ? -scroller.scrollTop : scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight
  /** Where the list's top is, relative to the viewport's top. */
  const listOffset = (scroller: HTMLElement, list: HTMLElement) => list.getBoundingClientRect().top - scroller.getBoundingClientRect().top

  /**
   * Where the list's first row would start, in the scroller's content coordinates: the list's own top, since its
   * top padding stands for the rows above the window.
   */
  const origin = (scroller: HTMLElement, list: HTMLElement) => listOffset(scroller, list) + topOf(scroller)

  /** The viewport top, in list coordinates, that this pass should show. */
  function targetTop(scroller: HTMLElement, list: HTMLElement, restore: boolean): number {
    if (following()) return bottomTop(layout, scroller.clientHeight)
    if (revealing) {
      const top = topForAnchor(layout, revealing)
      if (top !== undefined) return top
    }
    if (restore && anchor) {
      const top = topForAnchor(layout, anchor)
      if (top !== undefined) return top
    }
    return topOf(scroller) - origin(scroller, list)
  }

  function windowFor(scroller: HTMLElement, top: number): WindowRange {
    const height = scroller.clientHeight
    const wanted = computeWindow(layout, {
      top,
      height,
      overscan: height,
      maxRows,
      minRows: Math.min(MIN_MOUNTED_ROWS, maxRows),
      prefer: following() ? 'end' : 'start',
    })
    // Rows past the end of a shrunken list are not rows any more.
    const mounted = { start: Math.min(range.start, layout.count()), end: Math.min(range.end, layout.count()) }
    return keepMounted(mounted, wanted, maxRows)
  }

  function apply(next: WindowRange): void {
    range = next
    const ids = options.ids()
    setVisible(ids.slice(next.start, next.end) as string[])
    setPadding({ top: layout.offset(next.start), bottom: layout.total() - layout.offset(next.end) })
  }

  /** Puts the viewport where this pass decided, then remembers the row at its top. */
  function settle(scroller: HTMLElement, list: HTMLElement, top: number): void {
    if (following()) {
      // Already at the end (always, with a bottom origin, however much a streamed reply grew): no write, no scroll.
      if (gapBelow(scroller) >= 1) scroller.scrollTop = reversed ? 0 : scroller.scrollHeight
      followedTop = topOf(scroller)
    } else {
      // How far the view must move for `top` to be at its top, measured on screen: exact with either scroll origin
      // (scrollHeight and clientHeight are rounded, so an offset computed from them drifts by a pixel or so).
      const by = listOffset(scroller, list) + top
      if (Math.abs(by) >= 0.5) {
        scroller.scrollTop += by
        correctedTo = scroller.scrollTop
      }
    }
    // The anchor from where this pass meant the view to be, not from where it landed: the browser rounds scroll
    // offsets, and re-anchoring at each landing would add that error up over the updates of a streamed reply.
    anchor = following() ? undefined : anchorAt(layout, top)
  }

  /** A full pass: choose the window, mount it, and put the viewport back in place. */
  function pass(restore: boolean): void {
    const scroller = options.scroller()
    const list = options.list()
    if (!scroller || !list) return
    const top = targetTop(scroller, list, restore)
    apply(windowFor(scroller, top))
    settle(scroller, list, top)
  }

  const schedule = () => {
    if (frame) return
    frame = requestAnimationFrame(() => {
      frame = 0
      pass(true)
    })
  }

  // New or removed messages: re-lay out in the same update, so <For> mounts the right rows once; the scroll
  // position is settled after Solid has written the DOM (a microtask, still before the browser paints).
  createComputed(
    on(options.ids, (ids) => {
      layout.setRows(ids)
      const scroller = options.scroller()
      const list = options.list()
      if (!scroller || !list) {
        apply({ start: Math.max(0, ids.length - Math.min(maxRows, MIN_MOUNTED_ROWS)), end: ids.length })
        return
      }
      const top = targetTop(scroller, list, true)
      apply(windowFor(scroller, top))
      // Following the end, the list's resize callback settles the position: it runs after the frame's own layout,
      // so scrolling there costs no layout of its own (a microtask here forced one, the dearest part of the frame
      // in which a reply starts). A reader who scrolled away keeps their anchor before anything paints.
      if (!following()) queueMicrotask(() => settle(scroller, list, top))
    }),
  )

  const resizes = new ResizeObserver((entries) => {
    const scroller = options.scroller()
    const list = options.list()
    if (!scroller || !list) return
    let moved = false
    for (const entry of entries) {
      const id = rows.get(entry.target)
      if (id === undefined) continue
      const height = entry.borderBoxSize?.[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight
      if (layout.measure(id, height)) moved = true
    }
    // A new estimate moves every mounted row (see makeRowLayout). Take it for the first rows measured, and while the
    // reader is scrolled up, where rows mounted above get measured and the anchor already absorbs the moves; while
    // following the end, the rows appended there would each move the whole list for nothing the reader sees.
    if ((!sampled || !following()) && layout.refreshEstimate()) moved = true
    if (moved) sampled = true
    // The scroller changed size (window resize, the prompt grew) or the list did (rows came or went): same
    // handling, nothing to measure.
    if (!moved && !entries.some((entry) => entry.target === scroller || entry.target === list)) return
    const top = targetTop(scroller, list, true)
    setPadding({ top: layout.offset(range.start), bottom: layout.total() - layout.offset(range.end) })
    settle(scroller, list, top)
    if (!sameRange(windowFor(scroller, top), range)) schedule()
  })

  onMount(() => {
    const scroller = options.scroller()
    if (!scroller) return
    reversed = getComputedStyle(scroller).flexDirection === 'column-reverse'
    resizes.observe(scroller)
    const list = options.list()
    if (list) resizes.observe(list)
    const onScroll = () => {
      const list = options.list()
      if (!list) return
      // The scroll our own follow to the end made, which the resize pass that made it has settled (window, padding,
      // anchor): nothing to do, and nothing to read (a streamed reply makes one of these after every update). Not
      // at the top of what is loaded, where the reader's arrival there asks for older pages.
      if (following() && (reversed ? gapBelow(scroller) < 1 : Math.abs(scroller.scrollTop - followedTop) < 1) && range.start > 0) return
      // The scroll our own correction made (settle already chose the window and the anchor for it).
      if (!following() && correctedTo !== undefined && Math.abs(scroller.scrollTop - correctedTo) < 0.5) return
      correctedTo = undefined
      // Content may have grown between our own scroll to the end and this event (a busy main thread applies
      // deltas before the next frame): only a move up from where we put the viewport is the reader leaving. With a
      // bottom origin, growth never moves the view, so any move is the reader's.
      const ours = !reversed && following() && scroller.scrollTop >= followedTop - 1
      if (!ours) setFollowing(gapBelow(scroller) < FOLLOW_THRESHOLD_PX)
      const top = topOf(scroller) - origin(scroller, list)
      const next = windowFor(scroller, top)
      if (!sameRange(next, range)) apply(next)
      anchor = following() ? undefined : anchorAt(layout, top)
      if (next.start === 0 && top < scroller.clientHeight) options.onReachTop?.()
    }
    // Scrolling up by even a pixel means "let me read": stop following before the next resize pulls the view down.
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0) setFollowing(false)
    }
    // The reader's own move: a revealed row has done its job.
    const release = () => {
      revealing = undefined
    }
    const inputs = ['wheel', 'pointerdown', 'touchstart', 'keydown'] as const
    scroller.addEventListener('scroll', onScroll, { passive: true })
    scroller.addEventListener('wheel', onWheel, { passive: true })
    for (const input of inputs) scroller.addEventListener(input, release, { passive: true })
    pass(true)
    onCleanup(() => {
      scroller.removeEventListener('scroll', onScroll)
      scroller.removeEventListener('wheel', onWheel)
      for (const input of inputs) scroller.removeEventListener(input, release)
    })
  })
  onCleanup(() => {
    resizes.disconnect()
    if (frame) cancelAnimationFrame(frame)
  })

  return {
    visible,
    padding,
    following,
    observe(element, id) {
      rows.set(element, id)
      resizes.observe(element)
      onCleanup(() => {
        rows.delete(element)
        resizes.unobserve(element)
      })
    },
    reveal(id) {
      const scroller = options.scroller()
      if (!scroller || layout.indexOf(id) < 0) return
      setFollowing(false)
      revealing = { id, delta: Math.round(scroller.clientHeight / 3) }
      schedule()
    },
    scrollToBottom() {
      revealing = undefined
      setFollowing(true)
      pass(false)
    },
  }
}
