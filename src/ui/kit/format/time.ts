import { createSignal } from 'solid-js'
import { localMinute } from '../../../core/local-time'
import { displayTitle } from '../../../core/title'

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
 * The user's locale formats, made once and only after the first screen: the first `Intl.DateTimeFormat` of a page
 * loads its locale data and builds its patterns, 17–43 ms on a first visit, which made New session a long task when
 * it happened inside it (issue 18). Until `prepareDateFormats` has run, dates read as `localMinute` writes them; the
 * signal makes every date on screen switch to the locale's form when the formats are ready.
 */
interface DateFormats {
  dateTime: Intl.DateTimeFormat
  dayThisYear: Intl.DateTimeFormat
  day: Intl.DateTimeFormat
}
let formats: DateFormats | undefined
const [formatsReady, setFormatsReady] = createSignal(false)

/** Makes the locale's formats now (callers schedule it: `main.tsx` does so in the first idle moment after the first frame). */
export function prepareDateFormats(locale?: string): void {
  formats ??= {
    dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    dayThisYear: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }),
    day: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }),
  }
  setFormatsReady(true)
}

/** The formats once they are made; reading it inside a computation makes that computation follow their arrival. */
function readyFormats(): DateFormats | undefined {
  return formatsReady() ? formats : undefined
}

/**
 * A sidebar-sized "when": just now, 5 min ago, 3 h ago, yesterday, 4 d ago, then the date in the user's locale (the
 * year only when it differs). Future times (a clock that differs between tabs) read as "just now" rather than "in 2 s".
 */
export function formatRelativeTime(then: number, now: number): string {
  const elapsed = now - then
  if (elapsed < 45_000) return 'just now'
  if (elapsed < HOUR) return `${Math.max(1, Math.round(elapsed / MINUTE))} min ago`
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h ago`
  if (elapsed < 2 * DAY) return 'yesterday'
  if (elapsed < 7 * DAY) return `${Math.floor(elapsed / DAY)} d ago`
  const made = readyFormats()
  if (!made) return localMinute(then).slice(0, 10)
  const sameYear = new Date(then).getFullYear() === new Date(now).getFullYear()
  return (sameYear ? made.dayThisYear : made.day).format(then)
}

/** A full timestamp for headers and tooltips, in the user's locale: Dec 2, 2026, 6:33 AM or 02.12.2026, 06:33. */
export function formatDateTime(time: number): string {
  return readyFormats()?.dateTime.format(time) ?? localMinute(time)
}

/** A calendar day `YYYY-MM-DD` (the usage view's days, already in the user's time zone) in the user's locale. */
export function formatCalendarDay(day: string): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  const made = readyFormats()
  if (!parts || !made) return day
  return made.day.format(new Date(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])))
}

/** A session's title for display: a default title reads as the time it was made, in the user's locale. */
export function sessionTitle(title: string): string {
  return displayTitle(title, formatDateTime)
}

/** Machine-readable value for `<time datetime>`. */
export function isoTime(time: number): string {
  return new Date(time).toISOString()
}
