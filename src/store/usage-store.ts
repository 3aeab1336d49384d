import type { AssistantMessage } from '../core/schema'
import type { UsageQuery } from '../core/protocol/usage'
import { createUsageAccumulator, type UsageReport } from '../core/usage-report'
import type { StoreContext } from './context'
import { KEY } from './database'
import { read } from './transaction'

/** Replies read per request: a session of 100,000 messages is read in pages, never as one array. */
const PAGE = 2_000
/** Sessions read together in one read transaction: enough to keep IndexedDB busy, short enough not to hold up a write. */
const SESSIONS_PER_TRANSACTION = 32

/**
 * The usage report (issue 33) from the stored replies. Only what it sums is read: the sessions through the keys of
 * `[projectID+time.updated+id]` (no session row: the key says the project), then each session's assistant messages
 * from `since` on through `[sessionID+role+time.created+id]` (no prompt row, nothing before the period), folded as
 * they come, a page at a time. Each group of sessions is its own short read transaction, so a turn's writes never
 * wait for the whole read.
 */
export async function readUsage(context: StoreContext, query: UsageQuery): Promise<UsageReport> {
  const { db } = context
  const accumulator = createUsageAccumulator({ timeZone: query.timeZone })
  const index = db.sessions.where('[projectID+time.updated+id]')
  const keys = (await (query.projectID
    ? index.between([query.projectID, KEY.timeMin, KEY.idMin], [query.projectID, KEY.timeMax, KEY.idMax], true, true)
    : db.sessions.orderBy('[projectID+time.updated+id]')
  ).keys()) as unknown as [string, number, string][]
  const since = query.since ?? KEY.timeMin

  async function readSession(projectID: string, sessionID: string): Promise<void> {
    let lower: [string, string, number, string] = [sessionID, 'assistant', since, KEY.idMin]
    let inclusive = true
    for (;;) {
      const page = (await db.messages
        .where('[sessionID+role+time.created+id]')
        .between(lower, [sessionID, 'assistant', KEY.timeMax, KEY.idMax], inclusive, true)
        .limit(PAGE)
        .toArray()) as AssistantMessage[]
      for (const message of page) {
        accumulator.add({
          sessionID,
          projectID,
          time: message.time.created,
          providerID: message.providerID,
          modelID: message.modelID,
          agent: message.agent,
          cost: message.cost,
          tokens: message.tokens,
        })
      }
      const last = page[page.length - 1]
      if (page.length < PAGE || !last) return
      lower = [sessionID, 'assistant', last.time.created, last.id]
      inclusive = false
    }
  }

  for (let start = 0; start < keys.length; start += SESSIONS_PER_TRANSACTION) {
    const group = keys.slice(start, start + SESSIONS_PER_TRANSACTION)
    await read(context, [db.messages], () => Promise.all(group.map(([projectID, , sessionID]) => readSession(projectID, sessionID))))
  }

  const report = accumulator.report()
  const [projects, providers] = await Promise.all([db.projects.toArray(), db.providers.toArray()])
  const projectName = new Map(projects.map((project) => [project.id, project.name]))
  const providerName = new Map(providers.map((provider) => [provider.id, provider.name]))
  for (const row of report.projects) row.label = projectName.get(row.key) ?? row.key
  for (const row of report.models) {
    const slash = row.key.indexOf('/')
    const provider = providerName.get(row.key.slice(0, slash))
    const model = row.key.slice(slash + 1)
    // A provider removed since keeps its replies; its model is named alone.
    row.label = provider ? `${provider} / ${model}` : model
  }
  return report
}
