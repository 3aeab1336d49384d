// The part of the streaming bench that runs in the page (passed to page.evaluate, so it must be self-contained).

/**
 * The in-page driver: sends a prompt through the RPC and follows the reply on the app's event channel (envelopes
 * `{ protocol, events }`), as every tab does. Marks `bench:prompt`, `bench:first-delta`, `bench:last-delta` and
 * `bench:idle` for the trace. `hang`: the server holds the stream open after the last delta (no finish), the
 * driver waits for that delta to be committed, then cancels.
 */
export function drive({ sessionID, text, marker, hang, sampleMs, frames, timeoutMs, windowFrom, windowTo }) {
  const api = window.__tabcode.api
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
  const out = { chars: 0, events: 0, firstChars: 0, samples: [], errors: [], longTasks: [] }
  let framing = frames
  const channel = new BroadcastChannel('tabcode:events')
  let onComplete, onIdle, fail
  const complete = new Promise((resolve, reject) => ((onComplete = resolve), (fail = reject)))
  const idle = new Promise((resolve) => (onIdle = resolve))
  complete.catch(() => {})
  const timer = setTimeout(() => fail(new Error(`timed out after ${timeoutMs} ms with ${out.chars} of ${text.length} characters`)), timeoutMs)
  // An envelope carries a batch: `{ protocol, events }`.
  channel.onmessage = ({ data }) => {
    for (const event of data?.events ?? []) {
      if (!event || event.sessionID !== sessionID) continue
      if (event.type === 'part.delta') {
        const now = performance.now()
        if (!out.events++) {
          out.firstAt = now
          out.firstChars = event.delta.length
          performance.mark('bench:first-delta')
        }
        out.chars += event.delta.length
        // The middle 80% of the reply unless told otherwise: the per-delta cost leaves out the start (the first batches
        // can arrive late and then all at once) and the end.
        if (out.windowStartChars === undefined && out.chars >= (windowFrom ?? text.length * 0.1)) {
          out.windowStartChars = out.chars
          out.windowStartAt = now
          performance.mark('bench:window-start')
        }
        if (out.windowEndChars === undefined && out.chars >= (windowTo ?? text.length * 0.9)) {
          out.windowEndChars = out.chars
          out.windowEndAt = now
          performance.mark('bench:window-end')
        }
        if (out.chars >= text.length && out.lastAt === undefined) {
          out.lastAt = now
          performance.mark('bench:last-delta')
          onComplete()
        }
      } else if (event.type === 'session.error') {
        out.errors.push(event.error)
      } else if (event.type === 'session.status' && event.status.type === 'idle') {
        out.idleAt = performance.now()
        performance.mark('bench:idle')
        framing = false
        onIdle()
        if (out.lastAt === undefined) fail(new Error(`the turn ended after ${out.chars} of ${text.length} characters: ${JSON.stringify(out.errors)}`))
      }
    }
  }

  // Longest frames: gaps between animation frames (a fallback view of main-thread blocking), until the turn ends.
  const frameStats = { count: 0, maxGap: 0, over50: 0 }
  if (frames) {
    let last
    const tick = (t) => {
      if (!framing) return
      if (last !== undefined) {
        frameStats.count++
        frameStats.maxGap = Math.max(frameStats.maxGap, t - last)
        if (t - last > 50) frameStats.over50++
      }
      last = t
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  }
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) out.longTasks.push({ start: e.startTime, duration: e.duration })
  })
  observer.observe({ type: 'longtask', buffered: true })

  let sampling = !!sampleMs
  const sampler = (async () => {
    while (sampling) {
      const t = performance.now()
      out.samples.push({ t, ...(await api.metrics()) })
      await sleep(sampleMs)
    }
  })()

  const storedText = async () => {
    const { messages } = await api.pageMessages({ sessionID, limit: 1 })
    const last = messages.at(-1)
    if (last?.info.role !== 'assistant') return undefined
    return last.parts.filter((p) => p.type === 'text').map((p) => p.text).join('')
  }

  return (async () => {
    try {
      out.before = await api.metrics()
      out.promptAt = performance.now()
      performance.mark('bench:prompt')
      await api.prompt({ sessionID, parts: [{ type: 'text', text: 'Stream the bench reply.' }] })
      await complete
      if (hang) {
        // Persistence lag seen from the page: last delta in, until a read returns the full text.
        while ((await storedText())?.length !== text.length) {
          if (performance.now() - out.lastAt > 10_000) throw new Error('the streamed text was not committed within 10 s')
        }
        out.visibleAt = performance.now()
        // In the worker: the timed flush that holds the last delta. Nothing else commits while the stream hangs.
        for (;;) {
          const m = await api.metrics()
          if (m.characters - out.before.characters >= text.length && m.lastCommitAt > m.lastDeltaAt) break
          await sleep(10)
        }
        await sleep(300)
        out.atHang = await api.metrics()
        out.storedAtHang = (await storedText()) === text
        await api.cancel(sessionID)
      }
      await idle
      sampling = false
      await sampler
      out.after = await api.metrics()
      out.storedMatches = (await storedText()) === text
      await sleep(200) // the last batch is applied on the next frame
      out.shown = document.body.textContent.includes(marker)
      out.longTasks = out.longTasks.filter((e) => e.start + e.duration > out.promptAt && e.start < out.idleAt)
      out.frames = frameStats
      return out
    } finally {
      clearTimeout(timer)
      sampling = false
      framing = false
      observer.disconnect()
      channel.close()
    }
  })()
}
