/**
 * A local date and minute, year first: 2026-12-02 06:33. Written by hand, not with Intl, for what the first screen
 * shows (default titles, "Created …", the sidebar's tooltips): the first `Intl.DateTimeFormat` of a page loads its
 * locale data and builds its patterns, 17–43 ms measured on a first visit, inside New session's task, which it made a
 * long task (issue 18). It reads the same in every locale and sorts as it reads.
 */
export function localMinute(time: number | Date): string {
  const date = new Date(time)
  const two = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`
}
