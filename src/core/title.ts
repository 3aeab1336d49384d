import { localMinute } from './local-time'

const NEW_PREFIX = 'New session - '
const CHILD_PREFIX = 'Child session - '

// Exactly the two prefixes followed by `Date.toISOString()` output (milliseconds and `Z`).
const DEFAULT_TITLE = /^(New session - |Child session - )\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export function defaultTitle(options: { child: boolean; now: number }): string {
  return (options.child ? CHILD_PREFIX : NEW_PREFIX) + new Date(options.now).toISOString()
}

export function isDefaultTitle(title: string): boolean {
  return DEFAULT_TITLE.test(title)
}

/**
 * A title for display: default titles read better as the time they were made. `when` writes that time; the UI passes
 * its locale formatter (`ui/kit/format/time.ts`), anything else gets the local date and minute.
 */
export function displayTitle(title: string, when: (time: number) => string = localMinute): string {
  if (!isDefaultTitle(title)) return title
  const child = title.startsWith(CHILD_PREFIX)
  const iso = title.slice(child ? CHILD_PREFIX.length : NEW_PREFIX.length)
  return `${child ? 'Child session' : 'New session'} · ${when(Date.parse(iso))}`
}
