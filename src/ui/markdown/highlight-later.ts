/**
 * The markdown renderer's one use of the shared highlighter. It loads on first use (it pulls CodeMirror's language
 * data, which must stay out of the first-paint bundle) and runs when the main thread is idle, so a reply streaming
 * in keeps its frames: highlighting is never part of the frame that paints new text.
 */

type Idle = (run: () => void) => () => void

const whenIdle: Idle =
  typeof requestIdleCallback === 'function'
    ? (run) => {
        // The timeout bounds the wait on a page that is never idle (a long stream): the block is finished by then.
        const handle = requestIdleCallback(run, { timeout: 1_000 })
        return () => cancelIdleCallback(handle)
      }
    : (run) => {
        const handle = setTimeout(run, 0)
        return () => clearTimeout(handle)
      }

/** Highlights `element`'s code (a ``` block with info string `fence`) once the page is idle; returns a cancel. */
export function highlightWhenIdle(element: HTMLElement, code: string, fence: string, idle: Idle = whenIdle): () => void {
  let cancelled = false
  const cancelIdle = idle(() => {
    if (cancelled) return
    void import('../code/highlight')
      .then((highlighter) => (cancelled ? undefined : highlighter.highlightInto(element, code, { fence })))
      // Plain text is a fine fallback: a language that fails to load leaves the block as it was.
      .catch(() => undefined)
  })
  return () => {
    cancelled = true
    cancelIdle()
  }
}
