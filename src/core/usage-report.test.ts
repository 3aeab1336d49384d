import { describe, expect, it } from 'vitest'
import { dayFormatter, summarizeUsage, type UsageRecord } from './usage-report'

const reply = (overrides: Partial<UsageRecord> = {}): UsageRecord => ({
  sessionID: 'ses_a',
  projectID: 'prj_a',
  time: Date.UTC(2026, 11, 2, 12),
  providerID: 'prv_a',
  modelID: 'model-a',
  agent: 'build',
  cost: 0.1,
  tokens: { input: 100, output: 10, reasoning: 1, cache: { read: 50, write: 5 } },
  ...overrides,
})

describe('usage report', () => {
  it('sums tokens of every kind and cost exactly, over every reply and session', () => {
    const report = summarizeUsage(
      [reply(), reply({ cost: 0.2, sessionID: 'ses_b' }), reply({ cost: 0.3 })],
      { timeZone: 'UTC' },
    )
    // Plain addition gives 0.6000000000000001.
    expect(report.totals).toEqual({
      replies: 3,
      sessions: 2,
      cost: 0.6,
      unpriced: 0,
      tokens: { input: 300, output: 30, reasoning: 3, cacheRead: 150, cacheWrite: 15 },
    })
  })

  it('groups by calendar day in the user’s time zone, newest first', () => {
    // 23:30 UTC on 1 December is 00:30 on 2 December in Paris and 18:30 on 1 December in New York.
    const late = Date.UTC(2026, 11, 1, 23, 30)
    const records = [reply({ time: late }), reply({ time: Date.UTC(2026, 11, 2, 9) }), reply({ time: Date.UTC(2026, 10, 30, 9) })]
    const days = (timeZone: string) => summarizeUsage(records, { timeZone }).days.map((row) => [row.key, row.replies])
    expect(days('Europe/Paris')).toEqual([['2026-12-02', 2], ['2026-11-30', 1]])
    expect(days('America/New_York')).toEqual([['2026-12-02', 1], ['2026-12-01', 1], ['2026-11-30', 1]])
    expect(days('UTC')).toEqual([['2026-12-02', 1], ['2026-12-01', 1], ['2026-11-30', 1]])
  })

  it('names the day right across a whole day of replies, minutes apart, and a change of offset', () => {
    const dayOf = dayFormatter('Europe/Berlin')
    // 29 March 2026: clocks go from 02:00 to 03:00 (UTC+1 to UTC+2); midnight Berlin is 22:00 UTC the day before.
    const start = Date.UTC(2026, 2, 28, 21, 0)
    const seen = new Map<string, number>()
    for (let time = start; time < start + 26 * 3_600_000; time += 7 * 60_000) seen.set(dayOf(time), (seen.get(dayOf(time)) ?? 0) + 1)
    expect([...seen.keys()]).toEqual(['2026-03-28', '2026-03-29', '2026-03-30'])
    expect(dayOf(Date.UTC(2026, 2, 28, 22, 59))).toBe('2026-03-28')
    expect(dayOf(Date.UTC(2026, 2, 28, 23, 0))).toBe('2026-03-29')
    expect(dayOf(Date.UTC(2026, 2, 29, 21, 59))).toBe('2026-03-29')
    expect(dayOf(Date.UTC(2026, 2, 29, 22, 0))).toBe('2026-03-30')
  })

  it('groups by model (provider and model), project and agent, most expensive first', () => {
    const report = summarizeUsage(
      [
        reply({ cost: 0.5 }),
        reply({ modelID: 'model-b', agent: 'plan', projectID: 'prj_b', cost: 1 }),
        reply({ providerID: 'prv_b', modelID: 'model-a', agent: 'plan', cost: 0.25 }),
        reply({ modelID: 'model-b', agent: 'general', projectID: 'prj_b', cost: 1 }),
      ],
      { timeZone: 'UTC' },
    )
    const pick = (rows: { key: string; cost: number; replies: number }[]) => rows.map((row) => [row.key, row.cost, row.replies])
    expect(pick(report.models)).toEqual([['prv_a/model-b', 2, 2], ['prv_a/model-a', 0.5, 1], ['prv_b/model-a', 0.25, 1]])
    expect(pick(report.projects)).toEqual([['prj_b', 2, 2], ['prj_a', 0.75, 2]])
    expect(pick(report.agents)).toEqual([['plan', 1.25, 2], ['general', 1, 1], ['build', 0.5, 1]])
    // Every grouping adds up to the total.
    for (const rows of [report.days, report.models, report.projects, report.agents]) {
      expect(rows.reduce((sum, row) => sum + row.replies, 0)).toBe(4)
      expect(rows.reduce((sum, row) => sum + row.tokens.input, 0)).toBe(report.totals.tokens.input)
    }
  })

  it('counts a reply whose model had no price as unpriced, not as free, and keeps its tokens', () => {
    const report = summarizeUsage(
      [
        reply({ cost: 0.25 }),
        reply({ modelID: 'local', cost: 0 }),
        reply({ modelID: 'broken', cost: Number.NaN }),
        // An errored reply that used nothing costs nothing, and that is known.
        reply({ cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } }),
      ],
      { timeZone: 'UTC' },
    )
    expect(report.totals).toMatchObject({ replies: 4, cost: 0.25, unpriced: 2 })
    expect(report.totals.tokens.input).toBe(300)
    expect(report.models.find((row) => row.key === 'prv_a/local')).toMatchObject({ unpriced: 1, cost: 0, tokens: { input: 100 } })
  })

  it('reads a damaged count as none instead of spoiling the sums', () => {
    const report = summarizeUsage(
      [reply({ tokens: { input: Number.NaN, output: -4, reasoning: 2, cache: { read: Number.POSITIVE_INFINITY, write: 1 } } })],
      { timeZone: 'UTC' },
    )
    expect(report.totals.tokens).toEqual({ input: 0, output: 0, reasoning: 2, cacheRead: 0, cacheWrite: 1 })
  })

  it('is empty for no replies', () => {
    expect(summarizeUsage([], { timeZone: 'UTC' })).toEqual({
      totals: { replies: 0, sessions: 0, cost: 0, unpriced: 0, tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 } },
      days: [],
      models: [],
      projects: [],
      agents: [],
    })
  })
})
