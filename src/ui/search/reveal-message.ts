/** How long a hit's message stays marked after it is scrolled to. */
export const REVEAL_MARK_MS = 2_500
const REVEAL_WAIT_MS = 3_000

/**
 * Once the conversation has rendered the message a search hit points at, scrolls it into view and marks it briefly.
 * The message list calls it when the message is loaded and its rows are mounted around it (`OpenSession.reveal`,
 * `VirtualList.reveal`); this waits the frame or two until the row is in the DOM. Returns a function that stops
 * waiting.
 */
export function revealMessage(messageID: string, options: { root?: ParentNode; now?: () => number } = {}): () => void {
  const root = options.root ?? document
  const now = options.now ?? (() => performance.now())
  const deadline = now() + REVEAL_WAIT_MS
  let frame = 0
  let stopped = false
  const selector = `[data-message-row="${CSS.escape(messageID)}"]`
  const look = () => {
    if (stopped) return
    const row = root.querySelector<HTMLElement>(selector)
    if (row) {
      // The conversation follows its end until the reader scrolls up; a wheel-up is how it learns the reader left,
      // so the scroll below is not undone by the next resize of a row.
      row.closest('.message-scroller')?.dispatchEvent(new WheelEvent('wheel', { deltaY: -1 }))
      row.scrollIntoView({ block: 'center' })
      row.setAttribute('data-search-target', '')
      setTimeout(() => row.removeAttribute('data-search-target'), REVEAL_MARK_MS)
      return
    }
    if (now() < deadline) frame = requestAnimationFrame(look)
  }
  frame = requestAnimationFrame(look)
  return () => {
    stopped = true
    cancelAnimationFrame(frame)
  }
}
