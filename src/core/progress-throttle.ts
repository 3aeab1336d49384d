import type { Progress, ProgressSink } from './progress'

/** At most this often, a report crosses to the page: ten a second is smooth for a bar and costs nothing measurable. */
export const PROGRESS_INTERVAL_MS = 100

/**
 * A sink that passes on at most one report per `interval`, and always the first, a change of kind or unit, and the
 * last of a count (`done === total`), so the bar starts at once and is seen to end. Pure but for the injected clock.
 */
export function throttleProgress(sink: ProgressSink, options: { interval?: number; now?: () => number } = {}): ProgressSink {
  const interval = options.interval ?? PROGRESS_INTERVAL_MS
  const now = options.now ?? (() => performance.now())
  let last: Progress | undefined
  let at = -Infinity
  return (progress) => {
    const time = now()
    const sameKind = last !== undefined && last.type === progress.type && unitOf(last) === unitOf(progress)
    const ended = progress.type !== 'working' && progress.done >= progress.total
    if (sameKind && !ended && time - at < interval) return
    if (sameKind && last!.type === 'working') return
    last = progress
    at = time
    sink(progress)
  }
}

const unitOf = (progress: Progress) => (progress.type === 'count' ? progress.unit : progress.type)
