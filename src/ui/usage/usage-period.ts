/** The periods the usage view offers, like `opencode stats --days`: `days` of calendar days up to today, or all time. */
export const USAGE_PERIODS = [
  { value: '7', label: 'Last 7 days', days: 7 },
  { value: '30', label: 'Last 30 days', days: 30 },
  { value: 'all', label: 'All time', days: undefined },
] as const

export type UsagePeriod = (typeof USAGE_PERIODS)[number]['value']

/**
 * Where a period starts: midnight, in this page's time zone (the user's), `days − 1` days before today, so "last 7
 * days" is today and the six days before it, as the by-day table counts them. Undefined for all time.
 */
export function periodStart(period: UsagePeriod, now: number): number | undefined {
  const days = USAGE_PERIODS.find((entry) => entry.value === period)?.days
  if (days === undefined) return undefined
  const today = new Date(now)
  // Date's own calendar arithmetic: a day across a change of clocks is 23 or 25 hours, not 24.
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1)).getTime()
}

/** The page's time zone, which the worker groups days in (a worker could in principle differ; the page is the user's). */
export function userTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone
}
