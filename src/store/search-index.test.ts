import { describe, expect, it, vi } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { removeMessage } from './message-store'
import { putPart, putParts } from './parts'
import { searchSessions } from './search'
import { runSearchBackfill } from './search-backfill'
import { indexWords } from './search-index'
import { removeSession } from './session-store'
import type { Part } from '../core/schema'

const WORDS = ['lexer', 'parser', 'token', 'stall', 'quoted', 'commas', 'field', 'splitLine', 'csv.ts', 'the', 'a', 'marmalade', 'getUserName', 'v2beta']

/** Deterministic varied text, so the index and the scan can be compared on many queries. */
function corpus(count: number) {
  const { context } = makeTestContext()
  const build = makeBuilders()
  const session = build.session({ title: 'Varied' })
  const messages = Array.from({ length: count }, () => build.user(session.id))
  let seed = 7
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
  const parts = messages.map((message) => build.text(message, Array.from({ length: 3 + (next() % 9) }, () => WORDS[next() % WORDS.length]).join(next() % 3 ? ' ' : ', ')))
  return { context, session, messages, parts }
}

const ids = (hits: { messageID?: string }[]) => hits.map((hit) => hit.messageID)

/** A session with one stored reply, for parts to be written to. */
async function storedReply() {
  const { context } = makeTestContext()
  const build = makeBuilders()
  const session = build.session()
  const reply = build.assistant(session.id, build.user(session.id).id)
  await context.db.sessions.put(session)
  await context.db.messages.put(reply)
  return { context, build, session, reply }
}

describe('search index', () => {
  it('finds words from their start and from camelCase or digit boundaries', () => {
    expect(indexWords('Call splitLine() in src/csv.ts, then getUserName v2beta')).toEqual(
      expect.arrayContaining(['splitline', 'line', 'csv', 'ts', 'getusername', 'username', 'name', 'v2beta', '2beta', 'beta']),
    )
    expect(indexWords('İstanbul')).toContain('stanbul')
  })

  it('gives the scan\'s hits, in its order, for words, prefixes, phrases, punctuation and several terms', { timeout: 30_000 }, async () => {
    const { context, session, parts } = corpus(800)
    await context.db.sessions.put(session)
    await context.db.messages.bulkPut(parts.map((part) => ({ ...makeBuilders().user(session.id), id: part.messageID })))
    await context.db.parts.bulkPut(parts)
    expect(await context.db.searchIndex.count()).toBe(parts.length)
    const scanned = async (query: string, limit?: number) => {
      // The backfill mark above every id makes search scan everything: what it did before the index.
      await context.db.searchMeta.put({ key: 'backfill', below: '\uffff' })
      const hits = await searchSessions(context, { query, ...(limit ? { limit } : {}) })
      await context.db.searchMeta.delete('backfill')
      return hits
    }
    for (const query of ['marmalade', 'MARMA', 'lexer token', '"parser, token"', '"stall quoted"', 'line', 'csv.ts', '.ts', 'v2', 'name lexer', 'the a', 'nothing-here']) {
      const indexed = await searchSessions(context, { query, limit: 200 })
      expect({ query, hits: indexed }).toEqual({ query, hits: await scanned(query, 200) })
    }
    expect((await searchSessions(context, { query: 'marmalade' })).length).toBeGreaterThan(0)
  })

  it('indexes a streamed text part once it ends, not on the flushes before', async () => {
    const { context, build, reply } = await storedReply()
    const part: Part = { ...build.text(reply, ''), time: { start: 1 } }
    await putPart(context, part)
    await putParts(context, [{ ...part, text: 'the marmalade lexer' }])
    expect(await context.db.searchIndex.count()).toBe(0)
    await putPart(context, { ...part, text: 'the marmalade lexer stalls', time: { start: 1, end: 2 } })
    expect((await context.db.searchIndex.get(part.id))?.words).toContain('marmalade')
    expect(ids(await searchSessions(context, { query: 'marmalade' }))).toEqual([reply.id])
  })

  it('touches no index row when a step writes its tool, step and reasoning parts', async () => {
    const { context, build, session, reply } = await storedReply()
    const deletes = vi.spyOn(IDBObjectStore.prototype, 'delete')
    await putPart(context, { id: build.ids.ascending('part'), sessionID: session.id, messageID: reply.id, type: 'step-start' })
    await putPart(context, { id: build.ids.ascending('part'), sessionID: session.id, messageID: reply.id, type: 'reasoning', text: 'think', time: { start: 1, end: 2 } })
    await putPart(context, {
      id: build.ids.ascending('part'), sessionID: session.id, messageID: reply.id, type: 'tool', callID: 'call_1', tool: 'read',
      state: { status: 'completed', input: {}, output: 'the file', title: 'read', metadata: {}, time: { start: 1, end: 2 } },
    })
    expect(deletes).not.toHaveBeenCalled()
    // A text part that stops being indexable (emptied) still loses its row.
    const text = build.text(reply, 'the marmalade lexer')
    await putPart(context, text)
    expect(await context.db.searchIndex.get(text.id)).toBeDefined()
    await putPart(context, { ...text, text: '' })
    expect(await context.db.searchIndex.get(text.id)).toBeUndefined()
    deletes.mockRestore()
  })

  it('forgets a deleted message\'s and a deleted session\'s words', async () => {
    const { context, session, messages, parts } = corpus(20)
    await context.db.sessions.put(session)
    await context.db.messages.bulkPut(messages)
    await context.db.parts.bulkPut(parts)
    await removeMessage(context, messages[0]!.id)
    expect(await context.db.searchIndex.get(parts[0]!.id)).toBeUndefined()
    expect(await context.db.searchIndex.count()).toBe(19)
    await removeSession(context, session.id)
    expect(await context.db.searchIndex.count()).toBe(0)
  })

  it('writes nothing to the index when the transaction that wrote the part fails', async () => {
    const { context, session, messages, parts } = corpus(2)
    await context.db.sessions.put(session)
    await context.db.messages.bulkPut(messages)
    const failed = context.db.transaction('rw', context.db.parts, async () => {
      await context.db.parts.bulkPut(parts)
      throw new Error('disk full')
    })
    await expect(failed).rejects.toThrow('disk full')
    expect(await context.db.searchIndex.count()).toBe(0)
  })

  it('a backfill interrupted half way resumes, and search meanwhile finds what is indexed and what is not', { timeout: 30_000 }, async () => {
    const { context, session, messages, parts } = corpus(700)
    await context.db.sessions.put(session)
    await context.db.messages.bulkPut(messages)
    await context.db.parts.bulkPut(parts)
    // As an upgrade leaves it: nothing indexed, the mark above everything.
    await context.db.searchIndex.clear()
    await context.db.searchMeta.put({ key: 'backfill', below: '\uffff' })
    const before = await searchSessions(context, { query: 'marmalade', limit: 200 })
    let batches = 0
    await runSearchBackfill(context.db, async () => {
      if (++batches === 2) throw new Error('tab closed')
    }, 100).catch(() => {})
    expect(await context.db.searchIndex.count()).toBe(200)
    expect(await searchSessions(context, { query: 'marmalade', limit: 200 })).toEqual(before)
    await runSearchBackfill(context.db, async () => {}, 100)
    expect(await context.db.searchIndex.count()).toBe(700)
    expect(await context.db.searchMeta.count()).toBe(0)
    expect(await searchSessions(context, { query: 'marmalade', limit: 200 })).toEqual(before)
  })
})
