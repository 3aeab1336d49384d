/** The usage view's answer (issue 33): `core/usage-report.ts` makes it, `protocol/usage.ts` carries it. */

export interface UsageTokens {
  input: number
  output: number
  reasoning: number
  cacheRead: number
  cacheWrite: number
}

export interface UsageTotals {
  /** Assistant messages (replies) counted. */
  replies: number
  tokens: UsageTokens
  /** US dollars. */
  cost: number
  /** Replies that used tokens but carry no cost: their model had no price, so `cost` leaves them out. */
  unpriced: number
}

export interface UsageRow extends UsageTotals {
  /** The group: a day `YYYY-MM-DD`, `providerID/modelID`, a project id or an agent name. */
  key: string
  /** What the user reads; the worker fills it in for models and projects (provider and project names). */
  label: string
}

export interface UsageReport {
  totals: UsageTotals & { sessions: number }
  /** Newest day first; only days with replies. */
  days: UsageRow[]
  /** Most expensive first (then most tokens). */
  models: UsageRow[]
  projects: UsageRow[]
  agents: UsageRow[]
}
