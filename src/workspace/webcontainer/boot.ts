import type { WebContainer } from '@webcontainer/api'
import {
  bootFailureMessage,
  checkWebContainerSupport,
  DEFAULT_BOOT_TIMEOUT_MS,
  readEnvironment,
  type WebContainerEnvironment,
  type WebContainerUnsupportedReason,
} from './capability'

export type WebContainerBootFailureReason = WebContainerUnsupportedReason | 'timeout' | 'error' | 'aborted'

export type WebContainerBootResult =
  | { status: 'ready'; container: WebContainer }
  | { status: 'failed'; reason: WebContainerBootFailureReason; message: string }

export interface BootWebContainerOptions {
  /** WebContainer's boot never settles when StackBlitz is unreachable; this is how long the app waits for it. */
  timeoutMs?: number
  /** Boots the container; injected by tests. Defaults to the SDK, loaded on demand. */
  boot?: () => Promise<WebContainer>
  /** Defaults to the current page's. */
  environment?: WebContainerEnvironment
  /** Stops this caller waiting; the shared boot itself cannot be cancelled and carries on for other callers. */
  signal?: AbortSignal
}

/**
 * The folder name of WebContainer's working directory (`/home/workspace`), which the workspace maps to `/workspace`.
 * Paths a command prints therefore read `/home/workspace/...`.
 */
export const WORKDIR_NAME = 'workspace'

/**
 * The page's COEP, which WebContainer must be told (it is fixed at the first boot). Keep it equal to the header that
 * vite.config.ts and the service worker send.
 */
export const PAGE_COEP = 'credentialless'

/**
 * A boot function with its own memory: the first call that passes the capability check starts the one boot this
 * booter will ever make, and every later call shares its outcome. WebContainer allows a single instance per page, and
 * its SDK caches the StackBlitz frame of a failed attempt, so booting again after a timeout would hang the same way.
 * A capability failure is not remembered (no boot was started), so a page that comes back online can still boot.
 */
export function makeWebContainerBooter(): (options?: BootWebContainerOptions) => Promise<WebContainerBootResult> {
  let attempt: Promise<WebContainerBootResult> | undefined
  return async function bootWebContainer(options = {}) {
    if (options.signal?.aborted) return aborted()
    if (!attempt) {
      const support = checkWebContainerSupport(options.environment ?? readEnvironment())
      if (!support.supported) return { status: 'failed', reason: support.reason, message: support.message }
      attempt = startBoot(options.boot ?? bootFromStackBlitz, options.timeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS)
    }
    return options.signal ? untilAborted(attempt, options.signal) : attempt
  }
}

/** The page's one booter. Call it from the main thread only: the SDK needs `window` and `document`. */
export const bootWebContainer = makeWebContainerBooter()

async function startBoot(boot: () => Promise<WebContainer>, timeoutMs: number): Promise<WebContainerBootResult> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  // `then` turns a synchronous throw of `boot` into a rejection like any other.
  const booting = Promise.resolve().then(boot)
  try {
    const outcome = await Promise.race([booting.then((container) => ({ container })), timedOut])
    if (outcome !== 'timeout') return { status: 'ready', container: outcome.container }
    // A boot that finally succeeds after the app moved on to the offline workspace would hold a container nobody uses.
    booting.then((container) => container.teardown()).catch(() => {})
    return { status: 'failed', reason: 'timeout', message: bootFailureMessage('timeout', timeoutMs) }
  } catch (error) {
    return { status: 'failed', reason: 'error', message: bootFailureMessage(error) }
  } finally {
    clearTimeout(timer)
  }
}

async function bootFromStackBlitz(): Promise<WebContainer> {
  // Loaded on demand so the SDK stays out of the main bundle's first chunk.
  const { WebContainer } = await import('@webcontainer/api')
  return WebContainer.boot({ coep: PAGE_COEP, workdirName: WORKDIR_NAME })
}

function untilAborted(attempt: Promise<WebContainerBootResult>, signal: AbortSignal): Promise<WebContainerBootResult> {
  return new Promise((resolve) => {
    const onAbort = () => resolve(aborted())
    signal.addEventListener('abort', onAbort, { once: true })
    void attempt.then((result) => {
      signal.removeEventListener('abort', onAbort)
      resolve(result)
    })
  })
}

function aborted(): WebContainerBootResult {
  return { status: 'failed', reason: 'aborted', message: 'Starting WebContainer was cancelled; using the offline workspace.' }
}
