import type { UsageReport, UsageRow, UsageTokens, UsageTotals } from './dto/usage'

export type { UsageReport, UsageRow, UsageTokens, UsageTotals } from './dto/usage'

/**
 * Usage over time (issue 33): the tokens and cost of the stored replies, summed by day, model, project and agent, as
 * opencode's `opencode stats` does. Pure: the store feeds it one reply at a time, so nothing holds every row.
 */

/** What one assistant message contributes: the few fields of the stored row the report reads. */
export interface UsageRecord {
  sessionID: string
  projectID: string
  time: number
  providerID: string
  modelID: string
  agent: string
  cost: number
  tokens: { input: number; output: number; reasoning: number; cache: { read: number; write: number } }
}

/** A sum of doubles with Neumaier's compensation: adding many small costs keeps the exact decimal total (0.1 + 0.2 is 0.3). */
class Sum {
  private total = 0
  private compensation = 0
  add(value: number): void {
    const next = this.total + value
    this.compensation += Math.abs(this.total) >= Math.abs(value) ? this.total - next + value : value - next + this.total
    this.total = next
  }
  value(): number {
    return this.total + this.compensation
  }
}

/** Counts are whole numbers; anything else (a negative, NaN, Infinity from a damaged row) counts as none. */
const count = (value: number | undefined): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)

class Group {
  replies = 0
  unpriced = 0
  readonly cost = new Sum()
  readonly tokens: UsageTokens = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }

  add(tokens: UsageTokens, cost: number | undefined): void {
    this.replies++
    this.tokens.input += tokens.input
    this.tokens.output += tokens.output
    this.tokens.reasoning += tokens.reasoning
    this.tokens.cacheRead += tokens.cacheRead
    this.tokens.cacheWrite += tokens.cacheWrite
    if (cost === undefined) this.unpriced++
    else this.cost.add(cost)
  }

  totals(): UsageTotals {
    return { replies: this.replies, tokens: { ...this.tokens }, cost: this.cost.value(), unpriced: this.unpriced }
  }
}

const tokenSum = (tokens: UsageTokens) => tokens.input + tokens.output + tokens.reasoning + tokens.cacheRead + tokens.cacheWrite

/** The calendar day of `time` in `timeZone` (an IANA name, the user's), as `YYYY-MM-DD`. */
export function dayFormatter(timeZone: string): (time: number) => string {
  // en-CA writes dates as YYYY-MM-DD; formatToParts keeps it independent of that locale's punctuation all the same.
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
  // Replies come in time order within a session, so most fall on the day the one before fell on.
  let lastDay = ''
  let lastStart = 1
  let lastEnd = 0
  return (time) => {
    if (time >= lastStart && time < lastEnd) return lastDay
    const parts = Object.fromEntries(format.formatToParts(time).map((part) => [part.type, part.value]))
    lastDay = `${parts.year}-${parts.month}-${parts.day}`
    // The same day for the rest of this hour at least: zones change their offset only on whole quarter hours.
    lastStart = time - (time % 900_000)
    lastEnd = lastStart + 900_000
    return lastDay
  }
}

/**
 * Folds replies into a usage report one at a time. A reply's cost is unknown when it used tokens and costs nothing
 * (no price for its model) or its cost is not a number: it adds its tokens and counts as unpriced, never as free.
 */
export function createUsageAccumulator(options: { timeZone: string }) {
  const dayOf = dayFormatter(options.timeZone)
  const total = new Group()
  const sessions = new Set<string>()
  const groups = { days: new Map<string, Group>(), models: new Map<string, Group>(), projects: new Map<string, Group>(), agents: new Map<string, Group>() }
  const into = (map: Map<string, Group>, key: string) => {
    let group = map.get(key)
    if (!group) map.set(key, (group = new Group()))
    return group
  }

  return {
    add(record: UsageRecord): void {
      const tokens: UsageTokens = {
        input: count(record.tokens?.input),
        output: count(record.tokens?.output),
        reasoning: count(record.tokens?.reasoning),
        cacheRead: count(record.tokens?.cache?.read),
        cacheWrite: count(record.tokens?.cache?.write),
      }
      const priced = typeof record.cost === 'number' && Number.isFinite(record.cost) && record.cost >= 0
      const cost = priced && (record.cost > 0 || tokenSum(tokens) === 0) ? record.cost : undefined
      sessions.add(record.sessionID)
      total.add(tokens, cost)
      into(groups.days, dayOf(record.time)).add(tokens, cost)
      into(groups.models, `${record.providerID}/${record.modelID}`).add(tokens, cost)
      into(groups.projects, record.projectID).add(tokens, cost)
      into(groups.agents, record.agent).add(tokens, cost)
    },
    report(): UsageReport {
      const rows = (map: Map<string, Group>): UsageRow[] => [...map].map(([key, group]) => ({ key, label: key, ...group.totals() }))
      const byCost = (a: UsageRow, b: UsageRow) => b.cost - a.cost || tokenSum(b.tokens) - tokenSum(a.tokens) || a.key.localeCompare(b.key)
      return {
        totals: { ...total.totals(), sessions: sessions.size },
        days: rows(groups.days).sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0)),
        models: rows(groups.models).sort(byCost),
        projects: rows(groups.projects).sort(byCost),
        agents: rows(groups.agents).sort(byCost),
      }
    },
  }
}

/** The report of a list of replies (tests, small inputs); the store streams into the accumulator instead. */
export function summarizeUsage(records: Iterable<UsageRecord>, options: { timeZone: string }): UsageReport {
  const accumulator = createUsageAccumulator(options)
  for (const record of records) accumulator.add(record)
  return accumulator.report()
}
