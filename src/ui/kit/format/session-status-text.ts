import type { SessionStatus } from '../../../core/event'

/** Whole seconds left until `next` (epoch ms), rounded up so the count never shows 0 while still waiting. */
export function secondsUntil(next: number, now: number): number {
  return Math.max(0, Math.ceil((next - now) / 1000))
}

/** Whether a turn is under way (streaming, running tools, or waiting to retry): Stop and Queue apply. */
export function isRunning(status: SessionStatus | undefined): boolean {
  return status?.type === 'busy' || status?.type === 'retry'
}

/**
 * The status line in words: nothing when idle, "Working…" while busy, and a retry with its live countdown:
 * "Retrying (attempt 2) in 5 s: Rate limited". `now` ticks from the caller, so every tab counts on its own.
 */
export function describeStatus(status: SessionStatus | undefined, now: number): string {
  if (!status || status.type === 'idle') return ''
  if (status.type === 'busy') return 'Working…'
  const parts = retryParts(status, now)
  return `${parts.lead} ${parts.when}: ${parts.reason}`
}

/** The retry line in its pieces, so the ticking "in S s" can be kept out of what screen readers announce. */
export function retryParts(status: Extract<SessionStatus, { type: 'retry' }>, now: number) {
  const seconds = secondsUntil(status.next, now)
  return { lead: `Retrying (attempt ${status.attempt})`, when: seconds > 0 ? `in ${seconds} s` : 'now', reason: status.message }
}

/** Milliseconds until the shown count changes next (just past the next whole second before `next`). */
export function msUntilNextTick(next: number, now: number): number {
  const left = next - now
  if (left <= 0) return 1000
  return (left % 1000 || 1000) + 5
}
