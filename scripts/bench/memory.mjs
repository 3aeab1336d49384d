// Issue 32: what the tab costs in memory. Chromium's processes are found through the DevTools protocol
// (`SystemInfo.getProcessInfo` on the browser session gives each process's type and pid; Chromium runs unsandboxed
// here, so those are this machine's pids) and measured from /proc: RSS (`VmRSS` of /proc/<pid>/status) and, where
// the kernel has it, PSS (/proc/<pid>/smaps_rollup), which shares each shared page among the processes mapping it,
// so PSS summed over processes is what the browser as a whole holds. The page's renderer is the process the
// page's trace events came from (steps.mjs traces the read turn) or, without one, the renderer with the most RSS.
// The JS heaps (information) come from `Runtime.getHeapUsage` on the page and on its dedicated worker. How much of
// it all is garbage not yet collected shows after `collectGarbage` (V8's and Blink's collectors on both threads).
import { readdirSync, readFileSync } from 'node:fs'

const MB = 1024 * 1024

/** kB fields of a /proc file (`Name:   123 kB`), in MB; undefined when the file cannot be read. */
function procFields(path, names) {
  let text
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
  const out = {}
  for (const name of names) {
    const match = text.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))
    if (match) out[name] = Number(match[1]) / 1024
  }
  return out
}

const rssMb = (pid) => procFields(`/proc/${pid}/status`, ['VmRSS'])?.VmRSS
// RSS in two: pages of the process's own (heaps, allocators) and pages of files it maps (Chromium's code and data,
// shared with every other Chromium process).
const rssAnonMb = (pid) => procFields(`/proc/${pid}/status`, ['RssAnon'])?.RssAnon
const rssFileMb = (pid) => procFields(`/proc/${pid}/status`, ['RssFile'])?.RssFile
const pssMb = (pid) => procFields(`/proc/${pid}/smaps_rollup`, ['Pss'])?.Pss

/** The pid and every process under it (Chromium's zygotes and their renderers are children of children). */
function processTree(root) {
  const parent = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parent.set(Number(entry), ppid)
    } catch {
      // the process ended while we listed
    }
  }
  const tree = new Set([root])
  for (let grew = true; grew; ) {
    grew = false
    for (const [pid, ppid] of parent) if (tree.has(ppid) && !tree.has(pid)) (tree.add(pid), (grew = true))
  }
  return [...tree]
}

/**
 * Sends `method` to the page's main thread and to its dedicated worker; returns both results. The worker is a target
 * of the page's session; attached without flattening, it is spoken to through Target.sendMessageToTarget, which
 * Playwright's session carries as an ordinary command.
 */
async function onBothThreads(browser, page, method) {
  const pageSession = await page.context().newCDPSession(page)
  const out = {}
  try {
    out.page = await pageSession.send(method)
    const { targetInfos } = await pageSession.send('Target.getTargets')
    const worker = targetInfos.find((t) => t.type === 'worker')
    if (!worker) return out
    const browserSession = await browser.newBrowserCDPSession()
    try {
      const { sessionId } = await browserSession.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false })
      const reply = new Promise((resolve) => {
        browserSession.on('Target.receivedMessageFromTarget', (event) => {
          const message = JSON.parse(event.message)
          if (event.sessionId === sessionId && message.id === 1) resolve(message.result)
        })
      })
      await browserSession.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method }) })
      out.worker = await Promise.race([reply, new Promise((resolve) => setTimeout(resolve, 10_000))])
      await browserSession.send('Target.detachFromTarget', { sessionId }).catch(() => {})
    } finally {
      await browserSession.detach().catch(() => {})
    }
  } finally {
    await pageSession.detach().catch(() => {})
  }
  return out
}

/** JS heap in use (MB) of the page's main thread and of its dedicated worker. */
async function heaps(browser, page) {
  const { page: main, worker } = await onBothThreads(browser, page, 'Runtime.getHeapUsage')
  return { pageHeapMb: main.usedSize / MB, workerHeapMb: worker ? worker.usedSize / MB : undefined, pageHeapTotalMb: main.totalSize / MB, workerHeapTotalMb: worker ? worker.totalSize / MB : undefined }
}

/** Runs a full garbage collection on the page's main thread and on its worker (what the tab holds, not its garbage). */
export async function collectGarbage(browser, page) {
  await onBothThreads(browser, page, 'HeapProfiler.collectGarbage')
}

/**
 * The memory figures at this moment: the page's renderer (RSS, PSS), every Chromium process (RSS and PSS summed),
 * the JS heaps. `rendererPid`: the page's renderer when known (a trace's pid).
 */
export async function memoryNow(browser, page, rendererPid) {
  const session = await browser.newBrowserCDPSession()
  let processInfo
  try {
    ;({ processInfo } = await session.send('SystemInfo.getProcessInfo'))
  } finally {
    await session.detach().catch(() => {})
  }
  const browserPid = processInfo.find((p) => p.type === 'browser')?.id
  const renderers = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id)
  const renderer = renderers.includes(rendererPid) ? rendererPid : renderers.sort((a, b) => (rssMb(b) ?? 0) - (rssMb(a) ?? 0))[0]
  const all = browserPid ? processTree(browserPid) : processInfo.map((p) => p.id)
  const sum = (read) => all.reduce((total, pid) => total + (read(pid) ?? 0), 0)
  const figures = { rendererRssMb: rssMb(renderer), rendererRssAnonMb: rssAnonMb(renderer), rendererRssFileMb: rssFileMb(renderer), rendererPssMb: pssMb(renderer), browserRssMb: sum(rssMb), browserPssMb: sum(pssMb), processes: all.length, ...(await heaps(browser, page)) }
  return Object.fromEntries(Object.entries(figures).filter(([, v]) => typeof v === 'number'))
}

/**
 * BENCH_MEMORY_DUMP=1: what the renderer's memory is made of, from Chromium's own accounting (a detailed dump of the
 * `memory-infra` tracing category): the largest allocators of process `pid` (V8's heaps, Blink's, malloc,
 * PartitionAlloc, fonts, Skia, the compositor's tiles), in MB, for finding what to release. A deterministic dump
 * collects garbage first: this is what the renderer holds, not what it has yet to collect.
 */
export async function rendererAllocators(browser, pid, top = 25) {
  await browser.startTracing(undefined, { categories: ['disabled-by-default-memory-infra', '__metadata'] })
  const session = await browser.newBrowserCDPSession()
  try {
    const { success } = await session.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' })
    if (!success) throw new Error('Chromium did not take the memory dump')
  } finally {
    await session.detach().catch(() => {})
  }
  const parsed = JSON.parse((await browser.stopTracing()).toString('utf8'))
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  const dump = events.find((e) => e.ph === 'v' && e.pid === pid && e.args?.dumps?.allocators)
  if (!dump) return []
  const sizeOf = (entry) => Number.parseInt(entry?.attrs?.size?.value ?? '0', 16) / MB
  // Top-level allocators and their first level (`v8/main`, `malloc/partitions`…), largest first.
  return Object.entries(dump.args.dumps.allocators)
    .filter(([name]) => name.split('/').length <= 2)
    .map(([name, entry]) => ({ name, mb: sizeOf(entry) }))
    .filter((entry) => entry.mb >= 0.5)
    .sort((a, b) => b.mb - a.mb)
    .slice(0, top)
}
