import type { ClientApi } from '../core/protocol'

/**
 * The typed door e2e tests and the benchmark use to seed history and time worker calls. It reaches the same
 * worker RPC the UI uses; the UI itself never shows anything that did not come from storage.
 */
export interface TestHook {
  api: ClientApi
  version: string
  /** The project the sidebar lists; seeded sessions must carry it to appear there. */
  projectID: string
  /** The benchmark's share and import inputs, built in the page (a chunk of its own, loaded only when asked for). */
  benchData?: () => Promise<typeof import('../share/testing/bench-data')>
}

declare global {
  interface Window {
    __tabcode?: TestHook
  }
}

export function installTestHook(hook: TestHook): void {
  window.__tabcode = {
    benchData: () => import('../share/testing/bench-data'),
    ...hook,
  }
}
