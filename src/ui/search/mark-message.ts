/** How long a hit's message stays marked once it is rendered. */
export const REVEAL_MARK_MS = 2_500
const REVEAL_WAIT_MS = 3_000

/**
 * Once the conversation has rendered the message a search hit points at, marks it briefly. The message list calls it
 * when the message is loaded, beside `VirtualList.reveal`, which mounts the rows around it and scrolls there (the list
 * owns the scroll position: a scroll of the row from here was undone when the rows around it were measured). This
 * waits the frame or two until the row is in the DOM. Returns a function that stops waiting.
 */
export function markMessage(messageID: string, options: { root?: ParentNode; now?: () => number } = {}): () => void {
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
