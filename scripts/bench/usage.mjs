// Usage over time (issue 33): the usage view's query over 100,000 stored messages in the shapes real histories have:
// several projects, models and agents, sessions of a few to a few thousand messages over three months, replies with
// cache and reasoning tokens, some of a model without a price. Timed: the whole history (cold: the first call after a
// reload; warm: the median after it), the last 7 days, and one project; and how long a light call (one page of the
// session list) waits while the whole-history query runs, so the worker is seen to stay responsive. Seeded through
// writeFixture without parts: the query reads no part, and 100,000 messages are what it walks.
import { check, median, seed, waitForHook } from './page.mjs'
import { ascendingId, sessionRow } from './rows.mjs'
import { size } from './size.mjs'

export const USAGE_MESSAGES = size(100_000, 2_000)
const SESSIONS = size(400, 20)
const CHUNK = 2_000
const WARM_RUNS = size(9, 1)
const SETTLE_MS = 500
const DAY = 86_400_000
const SPAN_DAYS = 90
const TIME_ZONE = 'UTC'

const PROJECTS = ['prj_usage_web', 'prj_usage_api', 'prj_usage_docs', 'prj_usage_tools']
const MODELS = [
  { providerID: 'prv_usage_anthropic', modelID: 'claude-sonnet-4-5', input: 3, output: 15, cacheRead: 0.3 },
  { providerID: 'prv_usage_openai', modelID: 'gpt-5', input: 1.25, output: 10, cacheRead: 0.125 },
  { providerID: 'prv_usage_openai', modelID: 'gpt-5-mini', input: 0.25, output: 2, cacheRead: 0.025 },
  // A local model: no price, so its replies are unpriced.
  { providerID: 'prv_usage_local', modelID: 'qwen3-coder', input: 0, output: 0, cacheRead: 0 },
]
const AGENTS = ['build', 'build', 'build', 'plan', 'general', 'explore']

let prng = 7
const next = () => (prng = (prng * 48_271) % 2_147_483_647)
const between = (low, high) => low + (next() % (high - low + 1))

/** Session sizes skewed as real ones are: most a few dozen messages, a few thousands. */
function sessionSizes() {
  const weights = Array.from({ length: SESSIONS }, () => (next() % 10 === 0 ? 40 : 1) * between(1, 6))
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  const sizes = weights.map((weight) => Math.max(2, 2 * Math.floor((USAGE_MESSAGES * weight) / total / 2)))
  sizes[0] += USAGE_MESSAGES - sizes.reduce((sum, count) => sum + count, 0)
  check(sizes[0] >= 2, `session sizes do not add up to ${USAGE_MESSAGES} messages`)
  return sizes
}

function rows(version, now) {
  const sessions = []
  const messages = []
  const replies = []
  for (const [index, count] of sessionSizes().entries()) {
    const projectID = PROJECTS[index % PROJECTS.length]
    const model = MODELS[next() % MODELS.length]
    // Sessions start anywhere in the last three months and post a message a minute.
    const start = now - between(1, SPAN_DAYS) * DAY + between(0, DAY - 1)
    const end = Math.min(now - 1_000, start + count * 60_000)
    const session = { ...sessionRow(projectID, version, `Usage bench ${index}`, end), time: { created: start, updated: end } }
    sessions.push(session)
    let parentID
    for (let i = 0; i < count; i++) {
      const time = Math.min(end, start + i * 60_000)
      const id = ascendingId('msg', time)
      if (i % 2 === 0) {
        messages.push({ id, sessionID: session.id, role: 'user', time: { created: time }, agent: 'build', model: { providerID: model.providerID, modelID: model.modelID } })
        parentID = id
        continue
      }
      const cacheRead = between(0, 40_000)
      const tokens = { input: between(200, 8_000), output: between(50, 3_000), reasoning: next() % 3 === 0 ? between(100, 2_000) : 0, cache: { read: cacheRead, write: next() % 5 === 0 ? between(500, 5_000) : 0 } }
      const cost = (tokens.input * model.input + (tokens.output + tokens.reasoning) * model.output + tokens.cache.read * model.cacheRead + tokens.cache.write * model.input) / 1e6
      const agent = AGENTS[next() % AGENTS.length]
      const reply = {
        id, sessionID: session.id, role: 'assistant', time: { created: time, completed: time + 5_000 }, parentID, modelID: model.modelID,
        providerID: model.providerID, agent, mode: agent, path: { cwd: '/workspace', root: '/workspace' }, cost, tokens, finish: 'stop',
      }
      messages.push(reply)
      replies.push({ projectID, time, cost })
    }
  }
  const chunks = []
  for (let from = 0; from < messages.length; from += CHUNK) chunks.push({ sessions: from === 0 ? sessions : [], messages: messages.slice(from, from + CHUNK), parts: [] })
  return { chunks, replies }
}

/** Reloads, then times `api.usageReport` for `query`: the first call, then the median of WARM_RUNS more. */
async function timeUsage(page, query) {
  await page.reload()
  await waitForHook(page)
  await page.waitForTimeout(SETTLE_MS)
  const { times, replies, cost } = await page.evaluate(async ([query, runs]) => {
    const times = []
    let report
    while (times.length < runs) {
      const t0 = performance.now()
      report = await window.__tabcode.api.usageReport(query)
      times.push(performance.now() - t0)
    }
    return { times, replies: report.totals.replies, cost: report.totals.cost }
  }, [query, 1 + WARM_RUNS])
  return { cold: times[0], warm: median(times.slice(1)), replies, cost }
}

/** While the whole-history query runs, the longest wait of a page of the session list asked for again and again. */
async function concurrentWait(page, query) {
  return page.evaluate(async (query) => {
    const api = window.__tabcode.api
    let done = false
    const waits = []
    const usage = api.usageReport(query).finally(() => (done = true))
    while (!done) {
      const t0 = performance.now()
      await api.listSessions({ limit: 1 })
      waits.push(performance.now() - t0)
    }
    await usage
    return Math.max(0, ...waits)
  }, query)
}

export async function usageQuery(page, log) {
  const { version } = await page.evaluate(() => ({ version: window.__tabcode.version }))
  const now = Date.now()
  const { chunks, replies } = rows(version, now)
  const seedMs = await seed(page, chunks)
  log(`  wrote ${USAGE_MESSAGES} messages (${replies.length} replies) in ${(seedMs / 1000).toFixed(1)} s`)
  const figures = { seedMs_usage100kMessages: Math.round(seedMs) }

  const since = now - 7 * DAY
  const cases = {
    all: { query: { timeZone: TIME_ZONE }, expected: replies },
    last7Days: { query: { timeZone: TIME_ZONE, since }, expected: replies.filter((reply) => reply.time >= since) },
    oneProject: { query: { timeZone: TIME_ZONE, projectID: PROJECTS[0] }, expected: replies.filter((reply) => reply.projectID === PROJECTS[0]) },
  }
  for (const [name, { query, expected }] of Object.entries(cases)) {
    const { cold, warm, replies: counted, cost } = await timeUsage(page, query)
    check(counted === expected.length, `usage (${name}) counted ${counted} replies, expected ${expected.length}`)
    const cost0 = expected.reduce((sum, reply) => sum + reply.cost, 0)
    check(Math.abs(cost - cost0) < 1e-6, `usage (${name}) summed $${cost}, expected $${cost0}`)
    log(`  usage ${name}: cold ${cold.toFixed(1)} ms, warm median ${warm.toFixed(1)} ms, ${counted} replies`)
    Object.assign(figures, { [`usageReportMs_100kMessages_${name}`]: cold, [`usageReportWarmMs_100kMessages_${name}`]: warm })
  }
  figures.usageConcurrentCallMs_100kMessages = await concurrentWait(page, cases.all.query)
  log(`  a session-list page during the whole-history query waited at most ${figures.usageConcurrentCallMs_100kMessages.toFixed(1)} ms`)
  return figures
}
