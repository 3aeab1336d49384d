import type { StoreContext } from './context'
import type { Part } from '../core/schema'
import type { SearchHit } from '../core/dto/search'

export type { SearchHit }

export interface SearchInput {
  query: string
  /** Only sessions of this project. */
  projectID?: string
  limit?: number
}

const SNIPPET_CHARS = 140
const MAX_LIMIT = 200

/** Lower-cased words of the query; quoted phrases stay whole. */
export function queryTerms(query: string): string[] {
  const terms: string[] = []
  for (const match of query.toLocaleLowerCase().matchAll(/"([^"]+)"|(\S+)/g)) {
    const term = (match[1] ?? match[2] ?? '').trim()
    if (term) terms.push(term)
  }
  return terms
}

export function matchesAll(text: string, terms: readonly string[]): boolean {
  const lower = text.toLocaleLowerCase()
  return terms.every((term) => lower.includes(term))
}

/** A one-line excerpt of `text` around the first term, with where that term sits in it. */
export function snippetOf(text: string, terms: readonly string[]): { snippet: string; match: { start: number; length: number } } {
  const flat = text.replace(/\s+/g, ' ').trim()
  const lower = flat.toLocaleLowerCase()
  const term = terms[0] ?? ''
  const at = Math.max(0, lower.indexOf(term))
  const from = Math.max(0, Math.min(at - Math.floor((SNIPPET_CHARS - term.length) / 2), flat.length - SNIPPET_CHARS))
  const prefix = from > 0 ? '…' : ''
  const body = flat.slice(from, from + SNIPPET_CHARS)
  const suffix = from + SNIPPET_CHARS < flat.length ? '…' : ''
  return { snippet: prefix + body + suffix, match: { start: prefix.length + at - from, length: term.length } }
}

const searchable = (part: Part): part is Extract<Part, { type: 'text' }> => part.type === 'text' && !part.ignored && part.text.length > 0

/**
 * Full-text search over titles and message text, entirely in IndexedDB, so it works offline. Newest first: titles of
 * the most recently updated sessions, then message text from the newest part back, at most one hit per message.
 * A scan rather than an index: a few hundred milliseconds for 20,000 parts, and nothing to keep in step on writes.
 */
export async function searchSessions(context: StoreContext, input: SearchInput): Promise<SearchHit[]> {
  const terms = queryTerms(input.query)
  if (terms.length === 0) return []
  const limit = Math.min(Math.max(1, input.limit ?? 50), MAX_LIMIT)
  const { db } = context
  const sessions = await (input.projectID ? db.sessions.where('[projectID+time.updated+id]').between([input.projectID, -Infinity, ''], [input.projectID, Infinity, '\uffff']) : db.sessions.toCollection()).toArray()
  const titles = new Map(sessions.map((session) => [session.id, session.title]))
  const hits: SearchHit[] = []
  for (const session of [...sessions].sort((a, b) => b.time.updated - a.time.updated)) {
    if (hits.length >= limit) return hits
    if (matchesAll(session.title, terms)) hits.push({ sessionID: session.id, title: session.title, ...snippetOf(session.title, terms), time: session.time.updated })
  }
  const seen = new Set<string>()
  await db.parts
    .reverse()
    .until(() => hits.length >= limit)
    .each((part) => {
      if (!titles.has(part.sessionID) || seen.has(part.messageID) || !searchable(part) || !matchesAll(part.text, terms)) return
      seen.add(part.messageID)
      hits.push({
        sessionID: part.sessionID,
        title: titles.get(part.sessionID) ?? '',
        messageID: part.messageID,
        ...snippetOf(part.text, terms),
        time: part.time?.start ?? 0,
      })
    })
  return hits.slice(0, limit)
}
