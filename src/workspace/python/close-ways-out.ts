/**
 * Python's bridge to JavaScript (`import js`, `pyodide.http`, `pyodide_js`) reaches whatever the Pyodide worker's
 * global scope holds, and that worker runs at the app's own origin: its scope has the network, the app's storage
 * (IndexedDB, where the API keys are) and channels to the app's other contexts. `closeWaysOut` replaces each of
 * them, on the scope and on every prototype that defines it, by one that throws `ClosedToPythonError` saying why.
 * The worker calls it once Pyodide has loaded (which fetches its own files) and before any program runs.
 *
 * Syntax cannot be taken away (a dynamic `import()` of another host's module, from `js.eval`): the worker's own
 * Content Security Policy refuses that (vite.config.ts, `PYTHON_WORKER_POLICY`), and the worker checks that the
 * policy is in force before it starts (python.worker.ts).
 */

import { defineError } from '../../core/errors'

/** What a closed way out leads to: the reason is in the message Python prints. */
export type WayOut = 'network' | 'storage' | 'app'

const REASONS: Record<WayOut, string> = {
  network: 'programs here cannot reach the network (the agent’s webfetch tool asks the user before it fetches anything)',
  storage: 'programs here cannot reach the browser’s storage, where tabcode keeps its data',
  app: 'programs here cannot reach the rest of the app',
}

/** Raised (as a `JsException` in Python) by every closed way out. */
export const ClosedToPythonError = defineError('ClosedToPythonError', (feature: string, wayOut: WayOut) => ({
  message: `${feature} is switched off for Python in tabcode: ${REASONS[wayOut]}.`,
  data: { feature, wayOut },
}))

/** On the worker's global scope (and its prototypes). Absent ones are defined too, so each name gives the same answer. */
export const SCOPE_WAYS_OUT: Readonly<Record<string, WayOut>> = {
  fetch: 'network',
  XMLHttpRequest: 'network',
  WebSocket: 'network',
  WebSocketStream: 'network',
  EventSource: 'network',
  WebTransport: 'network',
  importScripts: 'network',
  // A nested worker (from a blob: URL, say) starts with fresh globals: every way out again.
  Worker: 'network',
  SharedWorker: 'network',
  // A font face loads its `url(…)` source from any host.
  FontFace: 'network',
  fonts: 'network',
  RTCPeerConnection: 'network',
  webkitRTCPeerConnection: 'network',
  indexedDB: 'storage',
  caches: 'storage',
  webkitRequestFileSystem: 'storage',
  webkitRequestFileSystemSync: 'storage',
  webkitResolveLocalFileSystemURL: 'storage',
  webkitResolveLocalFileSystemSyncURL: 'storage',
  // The app's own event and command channels are BroadcastChannels of this origin.
  BroadcastChannel: 'app',
  // The worker's channel to the agent's worker: only the engine speaks on it (it keeps its own reference).
  postMessage: 'app',
  Notification: 'app',
}

/** The ways out that are attributes (read, not called): they become getters that throw. The rest are functions. */
const ATTRIBUTES: ReadonlySet<string> = new Set([
  'fonts',
  'indexedDB',
  'caches',
  'storage',
  'storageBuckets',
  'locks',
  'serviceWorker',
  'usb',
  'hid',
  'serial',
  'bluetooth',
])

/** On `navigator` (and its prototypes). */
export const NAVIGATOR_WAYS_OUT: Readonly<Record<string, WayOut>> = {
  sendBeacon: 'network',
  storage: 'storage',
  storageBuckets: 'storage',
  // Web Locks are shared with the app's tabs (it holds them while a question waits, say).
  locks: 'app',
  serviceWorker: 'app',
  usb: 'app',
  hid: 'app',
  serial: 'app',
  bluetooth: 'app',
}

/**
 * Replaces every way out of `scope` (a worker's global scope) with one that throws. Functions stay functions
 * (callable and constructible, so `from js import XMLHttpRequest` still imports), attributes become getters; none
 * can be redefined afterwards. Throws if one of them cannot be replaced, so Python never starts with a way out
 * left open.
 */
export function closeWaysOut(scope: object): void {
  closeAll(scope, SCOPE_WAYS_OUT)
  const navigator = (scope as { navigator?: unknown }).navigator
  if (typeof navigator === 'object' && navigator !== null) closeAll(navigator, NAVIGATOR_WAYS_OUT)
}

function closeAll(target: object, waysOut: Readonly<Record<string, WayOut>>) {
  for (const [name, wayOut] of Object.entries(waysOut)) {
    const refuse = (): never => {
      throw new ClosedToPythonError(name, wayOut)
    }
    const replacement: PropertyDescriptor = ATTRIBUTES.has(name)
      ? { get: refuse, enumerable: false, configurable: false }
      : {
          // A plain function, not an arrow: `new` runs it too (an arrow is not constructible).
          value: function closed() {
            refuse()
          },
          writable: false,
          enumerable: false,
          configurable: false,
        }
    // Every prototype that has it too, so the original is left nowhere (`Object.getOwnPropertyDescriptor` of a
    // prototype would otherwise hand Python the real getter).
    for (let owner = Object.getPrototypeOf(target) as object | null; owner !== null; owner = Object.getPrototypeOf(owner) as object | null) {
      if (Object.hasOwn(owner, name)) replace(owner, name, replacement)
    }
    replace(target, name, replacement)
  }
}

function replace(owner: object, name: string, descriptor: PropertyDescriptor) {
  try {
    Object.defineProperty(owner, name, descriptor)
  } catch (error) {
    throw new Error(`Python cannot start: ${name} could not be switched off (${error instanceof Error ? error.message : String(error)})`)
  }
}
