import type { SessionInfo } from '../../core/schema'

/** The sidebar's filter. The rules mirror the worker's `listSessions` so a live event never shows a row a reload would hide. */
export interface ListFilter {
  search: string
  archived: boolean
  projectID?: string
}

/** Where a paged listing stopped: the (updated, id) of the last row the worker returned. */
export interface ListPosition {
  time: number
  id: string
}

/** The worker's order: last update first, ties by id descending (its `[time.updated+id]` index read in reverse). */
export function compareSessions(a: SessionInfo, b: SessionInfo): number {
  return comparePositions(positionOf(a), positionOf(b))
}

export function positionOf(info: SessionInfo): ListPosition {
  return { time: info.time.updated, id: info.id }
}

function comparePositions(a: ListPosition, b: ListPosition): number {
  if (a.time !== b.time) return b.time - a.time
  if (a.id === b.id) return 0
  return a.id < b.id ? 1 : -1
}

export function normalizeSearch(search: string): string {
  return search.trim().toLocaleLowerCase()
}

export function matchesFilter(info: SessionInfo, filter: ListFilter): boolean {
  // Children (subagent runs) belong under their parent, not at the top level.
  if (info.parentID) return false
  if (filter.projectID && info.projectID !== filter.projectID) return false
  if (!filter.archived && info.time.archived !== undefined) return false
  const search = normalizeSearch(filter.search)
  if (search && !info.title.toLocaleLowerCase().includes(search)) return false
  return true
}

/**
 * The rows to show, in order. With more pages to fetch (`frontier` set), rows that sort below the last fetched one
 * stay hidden even if the store knows them (from an earlier search, say): they would otherwise appear above rows
 * the next page is about to bring in.
 */
export function visibleSessions(sessions: Iterable<SessionInfo>, filter: ListFilter, frontier?: ListPosition): SessionInfo[] {
  const rows: SessionInfo[] = []
  for (const info of sessions) {
    if (!matchesFilter(info, filter)) continue
    if (frontier && comparePositions(positionOf(info), frontier) > 0) continue
    rows.push(info)
  }
  return rows.sort(compareSessions)
}

/** The session one step up or down the list from `current`; from nothing, down means the first and up the last. */
export function adjacentSession(ids: readonly string[], current: string | undefined, step: -1 | 1): string | undefined {
  if (ids.length === 0) return undefined
  const index = current === undefined ? -1 : ids.indexOf(current)
  if (index === -1) return step === 1 ? ids[0] : ids[ids.length - 1]
  return ids[Math.min(ids.length - 1, Math.max(0, index + step))]
}
