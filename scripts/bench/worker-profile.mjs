// The page's worker's CPU profile over a span of the bench (BENCH_PROFILE_DIR=dir): where a step's time goes, by
// function, read with DevTools' Performance panel or any .cpuprofile viewer. Through the browser's DevTools session,
// attached to the worker without flattening (a page session cannot reach a dedicated worker's Profiler).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const PROFILE_DIR = process.env.BENCH_PROFILE_DIR

/** Starts profiling the page's dedicated worker; `stop(name)` writes `<name>.cpuprofile` into PROFILE_DIR. */
export async function profileWorker(browser, page) {
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
  await send('Profiler.setSamplingInterval', { interval: 100 }) // µs: a step's pieces are a few ms
  await send('Profiler.start')
  return {
    async stop(name) {
      const { profile } = await send('Profiler.stop')
      await browserSession.detach().catch(() => {})
      mkdirSync(PROFILE_DIR, { recursive: true })
      const file = join(PROFILE_DIR, `${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`)
      writeFileSync(file, JSON.stringify(profile))
      return file
    },
  }
}
