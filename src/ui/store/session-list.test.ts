import { describe, expect, it } from 'vitest'
import type { SessionInfo } from '../../core/schema'
import { adjacentSession, compareSessions, matchesFilter, visibleSessions } from './session-list'

function session(id: string, updated: number, patch: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id,
    slug: 'tidy-fern',
    projectID: 'prj_a',
    directory: '/workspace',
    title: `Title of ${id}`,
    version: '0.1.0',
    time: { created: 1, updated },
    ...patch,
  }
}

const filter = { search: '', archived: false }
const ids = (list: SessionInfo[]) => list.map((info) => info.id)

describe('compareSessions', () => {
  it('sorts by last update, newest first, then by id descending like the worker index', () => {
    const list = [session('ses_a', 5), session('ses_c', 9), session('ses_b', 9), session('ses_d', 1)]
    expect(ids([...list].sort(compareSessions))).toEqual(['ses_c', 'ses_b', 'ses_a', 'ses_d'])
  })
})

describe('matchesFilter', () => {
  it('hides child sessions from the top level', () => {
    expect(matchesFilter(session('ses_child', 1, { parentID: 'ses_parent' }), filter)).toBe(false)
  })

  it('hides archived sessions unless asked for them', () => {
    const archived = session('ses_a', 1, { time: { created: 1, updated: 1, archived: 5 } })
    expect(matchesFilter(archived, filter)).toBe(false)
    expect(matchesFilter(archived, { ...filter, archived: true })).toBe(true)
  })

  it('searches titles case-insensitively, ignoring surrounding spaces', () => {
    const info = session('ses_a', 1, { title: 'Fix the Parser' })
    expect(matchesFilter(info, { ...filter, search: '  parser ' })).toBe(true)
    expect(matchesFilter(info, { ...filter, search: 'PARSE' })).toBe(true)
    expect(matchesFilter(info, { ...filter, search: 'lexer' })).toBe(false)
  })

  it('keeps to one project when given one', () => {
    expect(matchesFilter(session('ses_a', 1), { ...filter, projectID: 'prj_a' })).toBe(true)
    expect(matchesFilter(session('ses_a', 1), { ...filter, projectID: 'prj_b' })).toBe(false)
  })
})

describe('visibleSessions', () => {
  it('filters and orders', () => {
    const list = [
      session('ses_old', 1),
      session('ses_new', 10),
      session('ses_child', 20, { parentID: 'ses_new' }),
      session('ses_gone', 30, { time: { created: 1, updated: 30, archived: 31 } }),
    ]
    expect(ids(visibleSessions(list, filter))).toEqual(['ses_new', 'ses_old'])
  })

  it('hides rows below the last fetched one while more pages exist, but shows newer live arrivals', () => {
    const list = [session('ses_live', 100), session('ses_page', 50), session('ses_edge', 40), session('ses_stale', 10)]
    const frontier = { time: 40, id: 'ses_edge' }
    expect(ids(visibleSessions(list, filter, frontier))).toEqual(['ses_live', 'ses_page', 'ses_edge'])
    expect(ids(visibleSessions(list, filter))).toEqual(['ses_live', 'ses_page', 'ses_edge', 'ses_stale'])
  })

  it('breaks frontier ties by id the same way the worker does', () => {
    const list = [session('ses_b', 40), session('ses_a', 40)]
    expect(ids(visibleSessions(list, filter, { time: 40, id: 'ses_b' }))).toEqual(['ses_b'])
    expect(ids(visibleSessions(list, filter, { time: 40, id: 'ses_a' }))).toEqual(['ses_b', 'ses_a'])
  })
})

describe('adjacentSession', () => {
  const list = ['ses_1', 'ses_2', 'ses_3']

  it('steps up and down, stopping at the ends', () => {
    expect(adjacentSession(list, 'ses_2', 1)).toBe('ses_3')
    expect(adjacentSession(list, 'ses_2', -1)).toBe('ses_1')
    expect(adjacentSession(list, 'ses_3', 1)).toBe('ses_3')
    expect(adjacentSession(list, 'ses_1', -1)).toBe('ses_1')
  })

  it('starts from the top going down and from the bottom going up when nothing (listed) is open', () => {
    expect(adjacentSession(list, undefined, 1)).toBe('ses_1')
    expect(adjacentSession(list, 'ses_elsewhere', -1)).toBe('ses_3')
    expect(adjacentSession([], undefined, 1)).toBeUndefined()
  })
})
