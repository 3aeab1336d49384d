import type { Page } from '@playwright/test'

/**
 * Makes the app's storage slow to open in this page, as Chromium makes it while it recovers IndexedDB after a crash
 * (about 6 s after a browser was killed during a 20 MB import, issue 27): each `indexedDB.open` in the app's worker
 * delivers its success `delayMs` late. Chromium's recovery time varies with the machine and is often short, so a
 * test that needs the slow open cannot wait for the real one.
 *
 * Done from outside the app, through the DevTools protocol: the page's workers are held at their start
 * (`waitForDebuggerOnStart`), the app's worker gets the delay, and each is let go. Nothing of it is in the app.
 * Call before the page loads the app.
 */
export async function slowStorageOpen(page: Page, delayMs: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  let id = 0
  cdp.on('Target.attachedToTarget', (event: { sessionId: string; targetInfo: { type: string; url: string } }) => {
    const { sessionId, targetInfo } = event
    const send = (method: string, params: object = {}) =>
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method, params }) }).catch(() => undefined)
    // The app's own worker (assets/worker-<hash>.js); other workers (the service worker) are only let go.
    if (targetInfo.type === 'worker' && /\/assets\/worker-[^/]*\.js$/.test(targetInfo.url)) {
      void send('Runtime.evaluate', { expression: delayOpenSuccess(delayMs) })
    }
    void send('Runtime.runIfWaitingForDebugger')
  })
  // The older, unflattened form: Playwright's CDP session sends to its own target only, and reaches the worker this way.
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false })
}

/**
 * Runs in the worker: every open request's `onsuccess` handler is called `delayMs` after the success event. A string
 * (not a function's source, which the test's own compiler may have rewritten) since it runs where the test's code does not.
 */
const delayOpenSuccess = (delayMs: number) => `(() => {
  const open = IDBFactory.prototype.open
  const setSuccess = Object.getOwnPropertyDescriptor(IDBRequest.prototype, 'onsuccess').set
  IDBFactory.prototype.open = function (...args) {
    const request = open.apply(this, args)
    Object.defineProperty(request, 'onsuccess', {
      configurable: true,
      set(handler) {
        setSuccess.call(request, handler ? (event) => setTimeout(() => handler.call(request, event), ${delayMs}) : null)
      },
    })
    return request
  }
})()`
