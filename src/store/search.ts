import type { StoreContext } from './context'
import type { Part } from '../core/schema'
import type { SearchHit } from '../core/dto/search'
import { backfillState } from './search-backfill'
import { termPieces } from './search-index'
import { markdownToPlain } from '../core/markdown-plain'

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

/**
 * The excerpt of a message: its words without the markdown around them (`## Plan`, `**bold**`, fences), unless the
 * match is in the syntax itself (a link's address), where only the raw text holds it.
 */
export function messageSnippet(text: string, terms: readonly string[]): ReturnType<typeof snippetOf> {
  const plain = markdownToPlain(text)
  return matchesAll(plain, terms) ? snippetOf(plain, terms) : snippetOf(text, terms)
}

const searchable = (part: Part): part is Extract<Part, { type: 'text' }> => part.type === 'text' && !part.ignored && part.text.length > 0

/** Candidates verified per read: about one page of hits when they are dense, few reads when they are rare. */
const VERIFY_BATCH = 100
/** Parts read newest first before the index is asked: enough to fill a page with a word found in one part in eight. */
const SCAN_HEAD = 400
/** Stop intersecting once this few candidates are left: verifying them costs less than reading another word. */
const FEW_CANDIDATES = 200

/**
 * The ids of the indexed parts that may hold every term, newest first, or undefined when the index cannot narrow
 * the query (a term with no letters or digits). A term's pieces must each begin a word or a camelCase/digit tail of
 * one, except a first piece that the term starts with, which the text may hold inside a word: a query with any other
 * piece is narrowed by those alone, so nothing the scan would find is missed; a query of single words only is
 * narrowed by their starts, and misses a match only inside a word ("arser" in "parser").
 */
async function indexCandidates(context: StoreContext, terms: readonly string[]): Promise<string[] | undefined> {
  const { db } = context
  const pieces = terms.map((term) => termPieces(term).map((piece, at) => ({ piece, whole: at > 0 || !/^[\p{L}\p{N}]/u.test(term) })))
  if (pieces.some((list) => list.length === 0)) return undefined
  const all = pieces.flat()
  const whole = all.filter((entry) => entry.whole)
  const usable = [...new Set((whole.length > 0 ? whole : all).map((entry) => entry.piece))]
  const words = (piece: string) => db.searchIndex.where('words').startsWith(piece)
  const counted = usable.length === 1 ? usable.map((piece) => ({ piece, count: 0 })) : await Promise.all(usable.map(async (piece) => ({ piece, count: await words(piece).count() })))
  counted.sort((a, b) => a.count - b.count)
  let candidates: Set<string> | undefined
  for (const { piece } of counted) {
    const found = (await words(piece).primaryKeys()) as string[]
    candidates = candidates ? new Set(found.filter((id) => candidates!.has(id))) : new Set(found)
    if (candidates.size <= FEW_CANDIDATES) break
  }
  return [...(candidates ?? [])].sort().reverse()
}

/**
 * Full-text search over titles and message text, entirely in IndexedDB, so it works offline. Newest first: titles of
 * the most recently updated sessions, then message text from the newest part back, at most one hit per message.
 * Message text is found through the word index (`search-index.ts`) and each candidate checked against its text, so
 * a hit holds every term as the scan would find it; parts an upgraded database has not indexed yet (below the
 * backfill's mark) are scanned as before.
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
  const consider = (part: Part) => {
    if (!titles.has(part.sessionID) || seen.has(part.messageID) || !searchable(part) || !matchesAll(part.text, terms)) return
    seen.add(part.messageID)
    hits.push({
      sessionID: part.sessionID,
      title: titles.get(part.sessionID) ?? '',
      messageID: part.messageID,
      ...messageSnippet(part.text, terms),
      time: part.time?.start ?? 0,
    })
  }
  // The newest parts are read first, as the scan always did: a common word fills the page from them at once, where
  // its list in the index would be long to read. The index answers for the older parts, the scan for any the
  // backfill has not reached yet.
  let head: string | undefined
  await db.parts
    .reverse()
    .limit(SCAN_HEAD)
    .until(() => hits.length >= limit)
    .each((part) => {
      head = part.id
      consider(part)
    })
  if (hits.length >= limit || head === undefined) return hits.slice(0, limit)
  const below = head
  const unindexedBelow = (await backfillState(db))?.below
  const candidates = await indexCandidates(context, terms)
  if (candidates) {
    const indexed = candidates.filter((id) => id < below && (unindexedBelow === undefined || id >= unindexedBelow))
    for (let from = 0; from < indexed.length && hits.length < limit; from += VERIFY_BATCH) {
      for (const part of await db.parts.bulkGet(indexed.slice(from, from + VERIFY_BATCH))) if (part && hits.length < limit) consider(part)
    }
    if (unindexedBelow === undefined || hits.length >= limit) return hits.slice(0, limit)
  }
  const scanFrom = candidates && unindexedBelow !== undefined && unindexedBelow < below ? unindexedBelow : below
  await db.parts.where(':id').below(scanFrom).reverse().until(() => hits.length >= limit).each(consider)
  return hits.slice(0, limit)
}
