import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { messageSnippet, queryTerms, searchSessions, snippetOf } from './search'
import { makeTestContext } from '../testing/test-context'

async function seed() {
  const { context } = makeTestContext()
  const build = makeBuilders()
  const parser = build.session({ title: 'Fix the CSV parser' })
  const other = build.session({ title: 'Write release notes', projectID: 'prj_other' })
  const ask = build.user(parser.id)
  const reply = build.assistant(parser.id, ask.id)
  const later = build.user(parser.id)
  const notes = build.user(other.id)
  await context.db.sessions.bulkPut([parser, other])
  await context.db.messages.bulkPut([ask, reply, later, notes])
  await context.db.parts.bulkPut([
    build.text(ask, 'The parser drops quoted commas in src/csv.ts'),
    build.text(reply, `${'Some preamble. '.repeat(20)}I changed splitLine so quoted commas stay inside the field.`),
    { ...build.text(later, 'An ignored note about quoted commas'), ignored: true },
    build.text(notes, 'List the quoted commas fix in the release notes'),
  ])
  return { context, parser, other, ask, reply }
}

describe('search', () => {
  it('finds message text containing every word, newest first, with a snippet around the match', async () => {
    const { context, parser, ask, reply } = await seed()
    const hits = await searchSessions(context, { query: 'quoted COMMAS', projectID: 'prj_test' })
    expect(hits.map((hit) => hit.messageID)).toEqual([reply.id, ask.id])
    expect(hits[0]!.title).toBe(parser.title)
    const first = hits[0]!
    expect(first.snippet.startsWith('…')).toBe(true)
    expect(first.snippet.slice(first.match.start, first.match.start + first.match.length)).toBe('quoted')
  })

  it('matches titles, keeps to the project, and skips text never shown to the model as ignored', async () => {
    const { context, parser } = await seed()
    expect((await searchSessions(context, { query: 'csv parser', projectID: 'prj_test' }))[0]).toMatchObject({ sessionID: parser.id, snippet: 'Fix the CSV parser' })
    const everywhere = await searchSessions(context, { query: 'release notes' })
    expect(everywhere.map((hit) => hit.title)).toEqual(['Write release notes', 'Write release notes'])
    expect(await searchSessions(context, { query: 'ignored note' })).toEqual([])
  })

  it('needs every word, keeps quoted phrases whole and stops at the limit', async () => {
    const { context } = await seed()
    expect(await searchSessions(context, { query: 'quoted nothing-like-this' })).toEqual([])
    expect(queryTerms('"quoted commas" csv')).toEqual(['quoted commas', 'csv'])
    expect(await searchSessions(context, { query: '"commas quoted"' })).toEqual([])
    expect(await searchSessions(context, { query: 'commas', limit: 1 })).toHaveLength(1)
    expect(await searchSessions(context, { query: '   ' })).toEqual([])
  })

  it('keeps short texts whole in the snippet', () => {
    expect(snippetOf('one  two\nthree', ['two'])).toEqual({ snippet: 'one two three', match: { start: 4, length: 3 } })
  })

  it('shows a message without its markdown, unless the match is in the markdown itself', () => {
    expect(messageSnippet('## Plan\n\n- **Rename** the `parser` module', ['parser']).snippet).toBe('Plan Rename the parser module')
    expect(messageSnippet('See [docs](https://example.dev/guide)', ['example.dev']).snippet).toBe('See [docs](https://example.dev/guide)')
  })
})
