import type { ClientApi } from '../../core/protocol'

/**
 * The typed door e2e tests and the benchmark use to seed history and time worker calls. It reaches the same
 * worker RPC the UI uses; the UI itself never shows anything that did not come from storage.
 */
export interface TestHook {
  api: ClientApi
  version: string
  /** The project the sidebar lists; seeded sessions must carry it to appear there. */
  projectID: string
  /**
   * The benchmark's share and import inputs (`share/testing/bench-data.ts`), built as an entry of their own and loaded
   * by URL only when asked for: the app's own code never imports test scaffolding, so its shape is not typed here.
   */
  benchData?: () => Promise<Record<string, unknown>>
}

declare global {
  interface Window {
    __tabcode?: TestHook
  }
}

export function installTestHook(hook: TestHook): void {
  window.__tabcode = {
    benchData: () => import(/* @vite-ignore */ new URL('assets/bench-data.js', document.baseURI).href) as Promise<Record<string, unknown>>,
    ...hook,
  }
}
