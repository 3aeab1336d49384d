import { onCleanup, onMount } from 'solid-js'

const STUCK_THRESHOLD_PX = 48

/**
 * Chat-style scrolling: while the reader is at the bottom, growing content (new messages, streaming text, a card
 * that expands) keeps them there; once they scroll up, nothing moves under them.
 */
export function createStickToBottom(elements: { scroller: () => HTMLElement; content: () => HTMLElement }): {
  /** Runs `change` (which adds content above) and keeps what the reader was looking at in place. */
  keepPosition(change: () => Promise<void>): Promise<void>
  scrollToBottom(): void
} {
  let stuck = true
  const scrollToBottom = () => {
    const scroller = elements.scroller()
    scroller.scrollTop = scroller.scrollHeight
  }
  onMount(() => {
    const scroller = elements.scroller()
    const onScroll = () => {
      stuck = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < STUCK_THRESHOLD_PX
    }
    scroller.addEventListener('scroll', onScroll, { passive: true })
    const observer = new ResizeObserver(() => {
      if (stuck) scrollToBottom()
    })
    observer.observe(elements.content())
    scrollToBottom()
    onCleanup(() => {
      scroller.removeEventListener('scroll', onScroll)
      observer.disconnect()
    })
  })
  return {
    async keepPosition(change) {
      const scroller = elements.scroller()
      const fromBottom = scroller.scrollHeight - scroller.scrollTop
      await change()
      scroller.scrollTop = scroller.scrollHeight - fromBottom
    },
    scrollToBottom,
  }
}
