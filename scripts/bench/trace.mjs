// Main-thread and worker-thread task times from a Chromium trace (Playwright's browser.startTracing, i.e. the
// DevTools protocol). Every task a Blink thread runs is one `ThreadControllerImpl::RunTask` complete event in the
// `toplevel` category, with its real duration; the bench's own `performance.mark`s (category `blink.user_timing`)
// are recorded on the page's main thread in the same clock, so they both name that thread and bound the windows.
// Unlike the Long Tasks API, which only reports tasks of 50 ms or more, this sees every task.

export const TRACE_CATEGORIES = ['toplevel', 'blink.user_timing', '__metadata']
const TASK = 'ThreadControllerImpl::RunTask'

export async function startTrace(browser) {
  await browser.startTracing(undefined, { categories: TRACE_CATEGORIES })
}

/** Stops tracing and indexes the trace: the page's main thread, its worker thread, and the marks. */
export async function stopTrace(browser) {
  const parsed = JSON.parse((await browser.stopTracing()).toString('utf8'))
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  const marks = new Map()
  const names = new Map()
  for (const e of events) {
    if (e.cat === 'blink.user_timing' && e.name.startsWith('bench:')) marks.set(e.name, e)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}/${e.tid}`, e.args?.name ?? '')
  }
  const anyMark = marks.values().next().value
  if (!anyMark) throw new Error('the trace holds none of the bench marks: is the blink.user_timing category recorded?')
  const tasksOf = (pid, tid) => events.filter((e) => e.ph === 'X' && e.name === TASK && e.pid === pid && e.tid === tid)
  const main = tasksOf(anyMark.pid, anyMark.tid)
  // The app starts one dedicated worker (src/ui/worker-client.ts); if there were more, take the busiest.
  const workers = [...names]
    .filter(([key, name]) => name.startsWith('DedicatedWorker') && key.startsWith(`${anyMark.pid}/`))
    .map(([key]) => tasksOf(anyMark.pid, Number(key.split('/')[1])))
    .sort((a, b) => total(b) - total(a))
  const mark = (name) => {
    const e = marks.get(name)
    if (!e) throw new Error(`the trace has no mark ${name}`)
    return e.ts
  }
  return { main, worker: workers[0] ?? [], mark }
}

const total = (tasks) => tasks.reduce((sum, e) => sum + e.dur, 0)

/**
 * Milliseconds the thread was busy running tasks within [from, to] (trace µs): the union of task intervals clipped
 * to the window, so a nested task is not counted twice.
 */
export function busyMs(tasks, from, to) {
  const intervals = tasks
    .map((e) => [Math.max(e.ts, from), Math.min(e.ts + e.dur, to)])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0])
  let busy = 0
  let end = -Infinity
  for (const [a, b] of intervals) {
    if (b <= end) continue
    busy += b - Math.max(a, end)
    end = b
  }
  return busy / 1000
}

/** The longest task (ms) that overlaps [from, to], counted whole: a task that starts just before still blocks. */
export function longestTaskMs(tasks, from, to) {
  let longest = 0
  for (const e of tasks) if (e.ts < to && e.ts + e.dur > from) longest = Math.max(longest, e.dur)
  return longest / 1000
}
