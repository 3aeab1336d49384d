// Stop (issue 20: "Stop takes ~0.8 s to clear"): how long the worker takes from the cancel to the session's idle
// status, which is when the prompt box's Stop goes away, for a reply still streaming and for a bash command spinning
// in the offline shell (whose abort the loop's cleanup waits for). Timed in the page from `api.cancel` to the idle
// event on the event channel, so Playwright's round trips are not counted; the first run of each loads code and is
// left out.
import { size } from './size.mjs'

const RUNS = size(6, 1)

async function control(mockURL, path, body) {
  const response = await fetch(mockURL + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) })
  if (!response.ok) throw new Error(`mock model server ${path}: ${response.status} ${await response.text()}`)
}

/** In the page: a prompt, then, once the turn is under way, a cancel timed to the idle status. */
function timedStop({ model, kind, timeoutMs }) {
  const api = window.__tabcode.api
  const channel = new BroadcastChannel('tabcode:events')
  const seen = []
  return new Promise((resolve, reject) => {
    let sessionID
    let started
    const timer = setTimeout(() => reject(new Error(`the ${kind} turn did not stop within ${timeoutMs} ms: ${seen.join(', ')}`)), timeoutMs)
    // An envelope carries a batch: `{ protocol, events }`.
    channel.onmessage = ({ data }) => {
      for (const event of data?.events ?? []) {
        if (!event || (event.sessionID ?? event.part?.sessionID ?? event.info?.sessionID) !== sessionID) continue
        seen.push(`${event.type}${event.status ? `:${event.status.type}` : ''}${event.part ? `:${event.part.type}` : ''}`)
        const underway =
          kind === 'text'
            ? event.type === 'part.delta'
            : event.type === 'part.updated' && event.part?.type === 'tool' && event.part.state?.status === 'running' && event.part.state.metadata?.output
        if (started === undefined && underway) {
          started = performance.now()
          void api.cancel(sessionID)
        } else if (started !== undefined && event.type === 'session.status' && event.status?.type === 'idle') {
          clearTimeout(timer)
          channel.close()
          resolve({ ms: performance.now() - started, seen })
        }
      }
    }
    void api.createSession({}).then(async (session) => {
      sessionID = session.id
      await api.prompt({ sessionID, parts: [{ type: 'text', text: `stop me (${kind})` }], model })
    })
  })
}

export async function stopLatency(page, { mockURL, providerID }, log) {
  const model = { providerID, modelID: 'mock-model' }
  const figures = {}
  for (const kind of ['text', 'bash']) {
    const times = []
    for (let run = 0; run <= RUNS; run++) {
      await control(mockURL, '/__reset')
      const response =
        kind === 'text'
          ? { type: 'stream', chunks: [{ text: 'Working on it ' }, { text: 'still working' }], hangAfter: 1 }
          : {
              type: 'stream',
              chunks: [{ toolCall: { id: `spin_${run}`, name: 'bash', arguments: JSON.stringify({ command: 'echo started; while true; do :; done', description: 'Spins' }) } }],
            }
      // The title call takes the second response; a stopped turn never asks for a third.
      await control(mockURL, '/__script', { model: 'mock-model', responses: [response, { type: 'stream', chunks: [{ text: 'A title' }] }] })
      const { ms, seen } = await page.evaluate(timedStop, { model, kind, timeoutMs: 30_000 })
      if (run > 0) times.push(ms)
    }
    times.sort((a, b) => a - b)
    const median = times[Math.floor(times.length / 2)]
    log(`  stop (${kind}): median ${median.toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')}`)
    figures[kind === 'text' ? 'stopToIdleMs_streaming' : 'stopToIdleMs_bash'] = median
  }
  return figures
}
