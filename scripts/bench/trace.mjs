// Main-thread and worker-thread busy time from a Chromium trace (Playwright's browser.startTracing, i.e. the
// DevTools protocol). A Blink thread's tasks are `ThreadControllerImpl::RunTask` complete events (category
// `toplevel`) with their real durations. On the main thread the microtasks after a task run inside it; on a worker
// thread they do not: V8 runs them as separate top-level `RunMicrotasks` events (category `v8.execute`), and that is
// where a promise-driven pipeline such as the AI SDK's stream spends nearly all its time. So busy time here is the
// union of both kinds. The bench's own `performance.mark`s (category `blink.user_timing`) are recorded on the
// page's main thread in the same clock, so they both name that thread and bound the windows.
// Unlike the Long Tasks API, which only reports tasks of 50 ms or more, this sees every task.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

let saved = 0
export const TRACE_CATEGORIES = ['toplevel', 'v8.execute', 'blink.user_timing', '__metadata', ...(process.env.BENCH_TRACE_DETAIL ? ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler'] : [])]
const BUSY = new Set(['ThreadControllerImpl::RunTask', 'RunMicrotasks'])

export async function startTrace(browser) {
  await browser.startTracing(undefined, { categories: TRACE_CATEGORIES })
}

/** Stops tracing and indexes the trace: the page's main thread, its worker thread, and the marks. */
export async function stopTrace(browser, name = 'trace') {
  const buffer = await browser.stopTracing()
  // BENCH_TRACE_DIR=dir keeps every trace (open them in the DevTools Performance panel or ui.perfetto.dev).
  if (process.env.BENCH_TRACE_DIR) {
    mkdirSync(process.env.BENCH_TRACE_DIR, { recursive: true })
    writeFileSync(join(process.env.BENCH_TRACE_DIR, `${String(++saved).padStart(2, '0')}-${name}.json`), buffer)
  }
  const parsed = JSON.parse(buffer.toString('utf8'))
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  const marks = new Map()
  const names = new Map()
  for (const e of events) {
    if (e.cat === 'blink.user_timing' && e.name.startsWith('bench:')) marks.set(e.name, e)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}/${e.tid}`, e.args?.name ?? '')
  }
  const anyMark = marks.values().next().value
  if (!anyMark) throw new Error('the trace holds none of the bench marks: is the blink.user_timing category recorded?')
  const tasksOf = (pid, tid) => events.filter((e) => e.ph === 'X' && BUSY.has(e.name) && e.pid === pid && e.tid === tid)
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
  // pid: the page's renderer process (Chromium runs unsandboxed here, so it is this machine's pid).
  return { main, worker: workers[0] ?? [], mark, pid: anyMark.pid }
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

/**
 * The longest single task or microtask run (ms) that overlaps [from, to], counted whole: one that starts just
 * before still blocks. Back-to-back events are not merged: the thread's event loop turns between them.
 */
export function longestTaskMs(tasks, from, to) {
  let longest = 0
  for (const e of tasks) if (e.ts < to && e.ts + e.dur > from) longest = Math.max(longest, e.dur)
  return longest / 1000
}
