import { describe, expect, it } from 'vitest'
import { countReads } from '../testing/count-reads'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { readUsage } from './usage-store'

const DAY = 86_400_000
const start = Date.UTC(2026, 10, 20, 12)

async function seed() {
  const test = makeTestContext()
  const build = makeBuilders(start)
  const now = Date.now()
  const provider = { id: 'prv_mock', type: 'openai-compatible' as const, name: 'Mock', models: [], time: { created: now, updated: now } }
  await test.db.providers.put(provider)
  await test.db.projects.bulkPut([
    { id: 'prj_test', name: 'Web app', directory: '/workspace', trust: { state: 'trusted' }, origin: { type: 'new' }, time: { created: now, updated: now } },
    { id: 'prj_other', name: 'Notes', directory: '/workspace', trust: { state: 'trusted' }, origin: { type: 'new' }, time: { created: now, updated: now } },
  ] as never)
  const web = build.session()
  const notes = build.session({ projectID: 'prj_other' })
  const tokens = (input: number, output: number) => ({ input, output, reasoning: 0, cache: { read: 0, write: 0 } })
  const prompt = build.user(web.id, { time: { created: start } })
  const replies = [
    build.assistant(web.id, prompt.id, { providerID: 'prv_mock', modelID: 'big', cost: 0.5, tokens: tokens(1000, 100), time: { created: start } }),
    build.assistant(web.id, prompt.id, { providerID: 'prv_mock', modelID: 'big', cost: 0.25, tokens: tokens(500, 50), time: { created: start + 5 * DAY } }),
    build.assistant(notes.id, prompt.id, { providerID: 'prv_gone', modelID: 'small', agent: 'plan', cost: 0, tokens: tokens(10, 1), time: { created: start + 6 * DAY } }),
  ]
  await test.db.sessions.bulkPut([web, notes])
  await test.db.messages.bulkPut([prompt, ...replies])
  return { ...test, web, notes }
}

describe('readUsage', () => {
  it('sums every stored reply, named by project and provider, and reads no prompt', async () => {
    const { context, db } = await seed()
    const reads = await countReads(db)
    const report = await readUsage(context, { timeZone: 'UTC' })
    expect(report.totals).toMatchObject({ replies: 3, sessions: 2, cost: 0.75, unpriced: 1, tokens: { input: 1510, output: 151 } })
    expect(report.projects.map((row) => [row.label, row.cost])).toEqual([['Web app', 0.75], ['Notes', 0]])
    // A removed provider's model keeps its replies, named alone.
    expect(report.models.map((row) => row.label)).toEqual(['Mock / big', 'small'])
    expect(report.agents.map((row) => row.key)).toEqual(['build', 'plan'])
    expect(report.days.map((row) => row.key)).toEqual(['2026-11-26', '2026-11-25', '2026-11-20'])
    expect(reads.messages.size).toBe(3)
  })

  it('keeps to the period and to one project', async () => {
    const { context } = await seed()
    const recent = await readUsage(context, { timeZone: 'UTC', since: start + DAY })
    expect(recent.totals).toMatchObject({ replies: 2, cost: 0.25 })
    const oneProject = await readUsage(context, { timeZone: 'UTC', projectID: 'prj_test' })
    expect(oneProject.totals).toMatchObject({ replies: 2, sessions: 1, cost: 0.75 })
    expect(oneProject.projects.map((row) => row.key)).toEqual(['prj_test'])
  })

  it('reads a session longer than a page whole', async () => {
    const { context, db } = makeTestContext()
    const build = makeBuilders(start)
    const session = build.session()
    const prompt = build.user(session.id)
    const replies = Array.from({ length: 4_500 }, () =>
      build.assistant(session.id, prompt.id, { cost: 0.001, tokens: { input: 3, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } }),
    )
    await db.sessions.put(session)
    await db.messages.bulkPut([prompt, ...replies])
    const report = await readUsage(context, { timeZone: 'UTC' })
    expect(report.totals).toMatchObject({ replies: 4_500, cost: 4.5, tokens: { input: 13_500, output: 4_500 } })
  })
})
