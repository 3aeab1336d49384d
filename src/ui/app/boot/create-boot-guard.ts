import { onCleanup } from 'solid-js'
import { errorDetail } from './boot-failure'

/**
 * Until boot settles, any uncaught error or rejection means the app may never appear: report it so the recovery
 * screen replaces the splash. Stops listening once boot is over (or the owner goes away).
 */
export function createBootGuard(onFailure: (detail: string) => void): { stop(): void } {
  const onError = (event: ErrorEvent) => onFailure(errorDetail(event.error ?? event.message))
  const onRejection = (event: PromiseRejectionEvent) => onFailure(errorDetail(event.reason))
  window.addEventListener('error', onError)
  window.addEventListener('unhandledrejection', onRejection)
  const stop = () => {
    window.removeEventListener('error', onError)
    window.removeEventListener('unhandledrejection', onRejection)
  }
  onCleanup(stop)
  return { stop }
}
