import type { DBCore, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie'
import type { Part, SearchIndexRow } from '../core/schema'

/**
 * The word index behind search (issue 18): one `searchIndex` row per final text part, holding its words, with a
 * `multiEntry` index over them. It is written by a Dexie middleware on the `parts` table, inside the very
 * transaction that writes or deletes the parts, so every path (the part writer, prompts, imports, forks, fixtures,
 * reverts, deleting a message or a session) keeps it in step without knowing it exists, and a failed transaction
 * leaves neither. A text part is indexed once it is final (it has no time, or an end time: at text-end, at the turn's
 * cleanup), never on the streaming flushes before that.
 */

export const INDEX_STORE = 'searchIndex'
export const META_STORE = 'searchMeta'

/** Longer runs are cut: IndexedDB keys have a cost per byte, and nobody types 64 characters of one word. */
const MAX_WORD = 64
const RUN = /[\p{L}\p{N}]+/gu
/** Where a word inside a run may start too: camelCase humps, letters after digits and digits after letters. */
const BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/gu

/**
 * The words a text is found by: each run of letters and digits, lower-cased, and its tails from every camelCase or
 * letter/digit boundary (`splitLine` gives `splitline` and `line`), so a query word matches a text word from its
 * start or from such a boundary.
 */
export function indexWords(text: string): string[] {
  const words = new Set<string>()
  for (const [run] of text.matchAll(RUN)) {
    const lower = run.toLocaleLowerCase()
    words.add(lower.slice(0, MAX_WORD))
    // Lower-casing can add marks ('İ' gives 'i' and a dot above), which split the query's lower-cased word there.
    if (lower.length !== run.length) for (const [piece] of lower.matchAll(RUN)) words.add(piece.slice(0, MAX_WORD))
    if (run.length < 3) continue
    for (const boundary of run.matchAll(BOUNDARY)) words.add(run.slice(boundary.index, boundary.index + MAX_WORD).toLocaleLowerCase())
  }
  return [...words]
}

/** The runs of letters and digits of one lower-cased query term, in order. */
export function termPieces(term: string): string[] {
  return [...term.matchAll(RUN)].map(([run]) => run.slice(0, MAX_WORD))
}

/** What search matches: text the model is shown, and only once it is final. */
export function indexable(part: Part): part is Extract<Part, { type: 'text' }> {
  return part.type === 'text' && !part.ignored && part.text.length > 0 && (part.time === undefined || part.time.end !== undefined)
}

export function indexRowOf(part: Part): SearchIndexRow | undefined {
  return indexable(part) ? { partID: part.id, sessionID: part.sessionID, words: indexWords(part.text) } : undefined
}

/** A streamed text part before its end: neither indexed nor a reason to drop what is indexed. */
const streaming = (part: Part) => part.type === 'text' && part.time !== undefined && part.time.end === undefined

async function followWrite(index: DBCoreTable, trans: DBCoreTransaction, request: DBCoreMutateRequest, failures: Record<number, Error>): Promise<void> {
  switch (request.type) {
    case 'add':
    case 'put': {
      const rows: SearchIndexRow[] = []
      const dropped: string[] = []
      // A row the store refused (an add of an existing id) keeps the index row of the part that is stored.
      for (const part of (request.values as Part[]).filter((_, at) => !failures[at])) {
        const row = indexRowOf(part)
        if (row) rows.push(row)
        // Only a text part can have been indexed (a part keeps its type): a step's tool, step and reasoning writes
        // cost the index nothing (they were three deletes a step, each a request of its own).
        else if (part.type === 'text' && !streaming(part)) dropped.push(part.id)
      }
      if (rows.length) await index.mutate({ type: 'put', trans, values: rows })
      if (dropped.length) await index.mutate({ type: 'delete', trans, keys: dropped })
      return
    }
    case 'delete':
      await index.mutate({ type: 'delete', trans, keys: request.keys })
      return
    case 'deleteRange':
      // Both stores are keyed by the part id, so the same range names the same parts.
      await index.mutate({ type: 'deleteRange', trans, range: request.range })
  }
}

/**
 * Adds the index to every read-write transaction over `parts` and mirrors each write of parts into it. Installed by
 * `TabcodeDatabase`; a database opened at a version without the index is left alone.
 */
export const searchIndexMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'searchIndex',
  create(down) {
    const indexed = () => down.schema.tables.some((table) => table.name === INDEX_STORE)
    return {
      ...down,
      transaction(stores, mode, options) {
        const widen = mode === 'readwrite' && stores.includes('parts') && !stores.includes(INDEX_STORE) && indexed()
        return down.transaction(widen ? [...stores, INDEX_STORE] : stores, mode, options)
      },
      table(name) {
        const table = down.table(name)
        if (name !== 'parts' || !indexed()) return table
        const index = down.table(INDEX_STORE)
        return {
          ...table,
          async mutate(request) {
            const response = await table.mutate(request)
            await followWrite(index, request.trans, request, response.failures)
            return response
          },
        }
      },
    }
  },
}
