// Page helpers shared by the scale and streaming measurements.

/** Runs in every document before the app's scripts (context.addInitScript), for two reasons. */
export function pageSetup() {
  // 1. writeFixture announces every seeded session on the UI's event channel, and the live UI applies and re-renders
  //    them one at a time (5,000 had not finished after 10 minutes). That is setup, not what is measured, so
  //    once seeding starts (`__benchMute`) the app's channels drop events. Every measurement follows a reload.
  window.BroadcastChannel = class extends BroadcastChannel {
    constructor(name) {
      super(name)
      // Registered before the app sets `onmessage`, so stopping here keeps the event from reaching it.
      this.addEventListener('message', (event) => window.__benchMute && event.stopImmediatePropagation())
    }
  }
  // 2. If a cold call at boot was requested (sessionStorage survives the reload), fire it the instant the app
  //    installs the hook: right after the worker opened storage, ahead of the app's own boot queries (the sidebar's
  //    listSessions) that would otherwise warm the same index.
  let spec
  try {
    spec = sessionStorage.getItem('bench:cold')
  } catch {
    return // about:blank, between two measured loads: no storage there
  }
  if (!spec) return
  sessionStorage.removeItem('bench:cold')
  const { method, input } = JSON.parse(spec)
  let hook
  Object.defineProperty(window, '__tabcode', {
    configurable: true,
    get: () => hook,
    set(value) {
      hook = value
      const t0 = performance.now()
      window.__benchCold = value.api[method](input).then((result) => ({ ms: performance.now() - t0, result }))
    },
  })
}

export const waitForHook = (page) =>
  page.waitForFunction(() => !!window.__tabcode, null, { timeout: 30_000 }).catch(() => {
    throw new Error('window.__tabcode did not appear within 30 s: does the app install src/ui/app/test-hook.ts?')
  })

export const check = (ok, message) => {
  if (!ok) throw new Error(`verification failed: ${message}`)
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2
}

/** Loads `url` as a new document (a new worker, Dexie opened afresh), even when only the fragment differs. */
export async function openFresh(page, url) {
  await page.goto('about:blank')
  await page.goto(url)
  await waitForHook(page)
}

/** Writes fixture chunks with the app's event channel muted; returns the time spent in writeFixture (in the page). */
export async function seed(page, chunks) {
  let ms = 0 // time in the page around writeFixture: clone to the worker, validation, one transaction per chunk
  for (const chunk of chunks) {
    // As a JSON string: Playwright's own argument serializer is several times slower on ~2 MB objects.
    ms += await page.evaluate(async (json) => {
      window.__benchMute = true
      const fixture = JSON.parse(json)
      const t0 = performance.now()
      await window.__tabcode.api.writeFixture(fixture)
      return performance.now() - t0
    }, JSON.stringify(chunk))
  }
  return ms
}
