/** What the page knows about itself that decides whether WebContainer can boot. */
export interface WebContainerEnvironment {
  crossOriginIsolated: boolean
  hasSharedArrayBuffer: boolean
  userAgent: string
  online: boolean
}

export type WebContainerUnsupportedReason = 'not-isolated' | 'unsupported-browser' | 'offline'

export type WebContainerSupport =
  | { supported: true }
  | { supported: false; reason: WebContainerUnsupportedReason; message: string }

/** WebContainer's own boot never settles when StackBlitz is unreachable, so the app gives up after this long. */
export const DEFAULT_BOOT_TIMEOUT_MS = 20_000

export const FALLBACK_NOTE = 'tabcode uses its built-in offline workspace instead.'

/**
 * Whether WebContainer can be tried here, and if not why, in words for the user. Checked in order of what a user could
 * do about it: a browser that cannot work at all first (going online would not help), then a page served without
 * isolation, then the network, which may come back.
 */
export function checkWebContainerSupport(environment: WebContainerEnvironment): WebContainerSupport {
  if (isWebKitOnly(environment.userAgent)) {
    return {
      supported: false,
      reason: 'unsupported-browser',
      message: `WebContainer needs a Chromium-based browser (Chrome, Edge, Brave) or Firefox; Safari and other iOS browsers cannot give this page the isolation it needs. ${FALLBACK_NOTE}`,
    }
  }
  if (!environment.crossOriginIsolated || !environment.hasSharedArrayBuffer) {
    return {
      supported: false,
      reason: 'not-isolated',
      message: `WebContainer needs cross-origin isolation, which this page does not have (it must be served with the Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers). ${FALLBACK_NOTE}`,
    }
  }
  if (!environment.online) {
    return {
      supported: false,
      reason: 'offline',
      message: `You are offline: WebContainer loads its runtime from StackBlitz. ${FALLBACK_NOTE}`,
    }
  }
  return { supported: true }
}

/** The environment of the current page (main thread or worker); anything missing counts as unsupported. */
export function readEnvironment(): WebContainerEnvironment {
  const navigator = globalThis.navigator as Navigator | undefined
  return {
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    hasSharedArrayBuffer: typeof SharedArrayBuffer === 'function',
    userAgent: navigator?.userAgent ?? '',
    online: navigator?.onLine !== false,
  }
}

/** Why booting failed after the capability check passed, in words for the user. */
export function bootFailureMessage(failure: unknown, timeoutMs: number = DEFAULT_BOOT_TIMEOUT_MS): string {
  if (failure === 'timeout') {
    return `StackBlitz could not be reached within ${Number((timeoutMs / 1000).toPrecision(2))} s; using the offline workspace.`
  }
  const detail = failure instanceof Error ? failure.message : typeof failure === 'string' ? failure : ''
  return detail
    ? `WebContainer failed to start (${detail}); using the offline workspace.`
    : 'WebContainer failed to start; using the offline workspace.'
}

// Every browser on iOS/iPadOS is WebKit underneath, whatever its name (CriOS, FxiOS, EdgiOS). Desktop Safari ignores
// COEP `credentialless`, which is what this app sends, so it never becomes isolated here.
function isWebKitOnly(userAgent: string): boolean {
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return true
  if (/\bMacintosh\b/.test(userAgent) && /\bMobile\//.test(userAgent)) return true
  return /\bSafari\//.test(userAgent) && /\bVersion\//.test(userAgent) && !/\b(Chrome|Chromium|CriOS|Edg|Firefox|FxiOS)\//.test(userAgent)
}
