/*
 * Every tab hears every event (the BroadcastChannel), so every hidden tab would notify. Two Web Locks make it one:
 * each tab in view holds a shared lock, and one tab (the first to ask; the next in line when it closes) holds the
 * notifier's. The notifier tells only while no tab holds the shared one: a user looking at any tab of the app sees
 * what happened there. The notices' tags (one per session and kind) are the second guard: where a browser has no
 * Web Locks, every hidden tab notifies and the system keeps one notice per tag.
 */
const NOTIFIER_LOCK = 'tabcode:notifier'
const IN_VIEW_LOCK = 'tabcode:tab-in-view'

export interface NotifyingTab {
  /** Whether this tab is the one to notify now: it holds the notifier's lock and no tab of the app is in view. */
  mayNotify(): Promise<boolean>
  dispose(): void
}

export function createNotifyingTab(): NotifyingTab {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
  if (!locks) return { mayNotify: async () => document.visibilityState === 'hidden', dispose: () => {} }
  const stop = new AbortController()
  let leading = false
  // Held until the tab closes (or this notifier is disposed).
  locks
    .request(NOTIFIER_LOCK, { signal: stop.signal }, () => {
      leading = true
      return new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }))
    })
    .catch(() => {})
    .finally(() => (leading = false))

  let leaveView: (() => void) | undefined
  const followView = () => {
    if (document.visibilityState === 'visible' && !leaveView) {
      const held = new Promise<void>((resolve) => (leaveView = resolve))
      locks.request(IN_VIEW_LOCK, { mode: 'shared' }, () => held).catch(() => {})
    } else if (document.visibilityState !== 'visible' && leaveView) {
      leaveView()
      leaveView = undefined
    }
  }
  followView()
  document.addEventListener('visibilitychange', followView)

  return {
    async mayNotify() {
      if (!leading || document.visibilityState !== 'hidden') return false
      const { held = [] } = await locks.query()
      return !held.some((lock) => lock.name === IN_VIEW_LOCK)
    },
    dispose() {
      stop.abort()
      document.removeEventListener('visibilitychange', followView)
      leaveView?.()
      leaveView = undefined
    },
  }
}
