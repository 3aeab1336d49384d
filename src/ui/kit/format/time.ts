import { localMinute } from '../../../core/local-time'

/** How long something took, at the precision that matters for it: 420 ms, 4.2 s, 12 s, 3 min 4 s, 1 h 2 min. */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '0 ms'
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`
  const seconds = milliseconds / 1000
  if (seconds < 10) return `${seconds.toFixed(1)} s`
  if (seconds < 60) return `${Math.floor(seconds)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) {
    const rest = Math.floor(seconds - minutes * 60)
    return rest ? `${minutes} min ${rest} s` : `${minutes} min`
  }
  const hours = Math.floor(minutes / 60)
  const restMinutes = minutes - hours * 60
  return restMinutes ? `${hours} h ${restMinutes} min` : `${hours} h`
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * A sidebar-sized "when": just now, 5 min ago, 3 h ago, yesterday, 4 d ago, then the date. Future times (a clock
 * that differs between tabs) read as "just now" rather than "in 2 s".
 */
export function formatRelativeTime(then: number, now: number, locale?: string): string {
  const elapsed = now - then
  if (elapsed < 45_000) return 'just now'
  if (elapsed < HOUR) return `${Math.max(1, Math.round(elapsed / MINUTE))} min ago`
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h ago`
  if (elapsed < 2 * DAY) return 'yesterday'
  if (elapsed < 7 * DAY) return `${Math.floor(elapsed / DAY)} d ago`
  const date = new Date(then)
  const sameYear = date.getFullYear() === new Date(now).getFullYear()
  return date.toLocaleDateString(locale, sameYear ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' })
}

/** A full timestamp for headers and tooltips (see `localMinute` for why not Intl). */
export function formatDateTime(time: number): string {
  return localMinute(time)
}

/** Machine-readable value for `<time datetime>`. */
export function isoTime(time: number): string {
  return new Date(time).toISOString()
}
