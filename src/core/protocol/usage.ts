import type { UsageReport } from '../dto/usage'

export type { UsageReport, UsageRow, UsageTokens, UsageTotals } from '../dto/usage'

/** Which replies the usage view sums: since a time (the start of the period, none for all time) and in one project or all. */
export interface UsageQuery {
  /** Epoch ms; replies created before it are left out. */
  since?: number
  projectID?: string
  /** The user's IANA time zone, which decides the day a reply falls on. */
  timeZone: string
}

/** Usage over time (issue 33): tokens and cost from the stored replies, read by the worker's entry, so it works offline. */
export interface UsageApi {
  usageReport(query: UsageQuery): UsageReport
}
