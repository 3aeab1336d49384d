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

interface Job {
  element: HTMLElement
  code: string
  fence: string
  cancelled: () => boolean
}

const queue: Job[] = []
let draining = false

/** A turn of the event loop: what follows runs in a task of its own. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * Highlights the queued blocks one task at a time. Without the queue, every block waiting for the highlighter (a
 * reply with dozens of them) resumed in the same task once its module or a language loaded, and that one task
 * highlighted them all: measured at 50 ms and more in the streaming bench. Now a module's evaluation and each
 * block's parse are separate tasks.
 */
async function drain(): Promise<void> {
  if (draining) return
  draining = true
  try {
    const highlighter = await import('../code/highlight')
    while (queue.length > 0) {
      await nextTask()
      const job = queue.shift()!
      if (job.cancelled()) continue
      // Plain text is a fine fallback: a language that fails to load leaves the block as it was.
      const language = await highlighter.loadLanguage({ fence: job.fence }).catch(() => undefined)
      if (!language) continue
      await nextTask()
      if (!job.cancelled()) await highlighter.highlightInto(job.element, job.code, { fence: job.fence }).catch(() => undefined)
    }
  } catch {
    // The highlighter itself did not load (offline before it was cached): the blocks stay plain.
    queue.length = 0
  } finally {
    draining = false
  }
}

/** Highlights `element`'s code (a ``` block with info string `fence`) once the page is idle; returns a cancel. */
export function highlightWhenIdle(element: HTMLElement, code: string, fence: string, idle: Idle = whenIdle): () => void {
  let cancelled = false
  const cancelIdle = idle(() => {
    if (cancelled) return
    queue.push({ element, code, fence, cancelled: () => cancelled })
    void drain()
  })
  return () => {
    cancelled = true
    cancelIdle()
  }
}
