// CPU profiles of the page's main thread and of its worker over a span of the bench (BENCH_PROFILE_DIR=dir): where
// a step's time goes, by function, read with DevTools' Performance panel or any .cpuprofile viewer. The worker is
// reached through the browser's DevTools session, attached without flattening (a page session cannot reach a
// dedicated worker's Profiler). Profiling slows what it watches: figures from such a run are not the bench's.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const PROFILE_DIR = process.env.BENCH_PROFILE_DIR

const SAMPLING_US = 100 // a step's pieces are a few ms

function write(name, profile) {
  mkdirSync(PROFILE_DIR, { recursive: true })
  const file = join(PROFILE_DIR, `${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`)
  writeFileSync(file, JSON.stringify(profile))
  return file
}

/** Starts profiling the page's worker and its main thread; `stop(name)` writes `<name>-worker` and `<name>-page`. */
export async function profileTurns(browser, page) {
  const worker = await profileWorker(browser, page)
  const pageSession = await page.context().newCDPSession(page)
  await pageSession.send('Profiler.enable')
  await pageSession.send('Profiler.setSamplingInterval', { interval: SAMPLING_US })
  await pageSession.send('Profiler.start')
  return {
    async stop(name) {
      const { profile } = await pageSession.send('Profiler.stop')
      await pageSession.detach().catch(() => {})
      return [await worker.stop(`${name} worker`), write(`${name} page`, profile)].join(', ')
    },
  }
}

/** Starts profiling the page's dedicated worker; `stop(name)` writes `<name>.cpuprofile` into PROFILE_DIR. */
async function profileWorker(browser, page) {
  const pageSession = await page.context().newCDPSession(page)
  const { targetInfos } = await pageSession.send('Target.getTargets')
  await pageSession.detach().catch(() => {})
  const worker = targetInfos.find((target) => target.type === 'worker')
  if (!worker) throw new Error('BENCH_PROFILE_DIR: the page has no worker to profile')
  const browserSession = await browser.newBrowserCDPSession()
  const { sessionId } = await browserSession.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false })
  let lastID = 0
  const waiting = new Map()
  browserSession.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message)
    if (event.sessionId !== sessionId || !waiting.has(message.id)) return
    waiting.get(message.id)(message)
    waiting.delete(message.id)
  })
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++lastID
      waiting.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)))
      browserSession.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject)
    })
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: SAMPLING_US })
  await send('Profiler.start')
  return {
    async stop(name) {
      const { profile } = await send('Profiler.stop')
      await browserSession.detach().catch(() => {})
      return write(name, profile)
    },
  }
}
