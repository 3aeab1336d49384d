import type { StoreContext } from '../session/context'
import type { WorkerHandlers } from './protocol'

type ProviderHandlers = Pick<
  WorkerHandlers,
  'listProviders' | 'saveProvider' | 'removeProvider' | 'listRemoteModels' | 'testConnection' | 'getSettings' | 'setSetting'
>

class NotBuiltError extends Error {
  override name = 'NotBuiltError'
}

/** Provider and settings operations (keys go in, never out). */
export function providerHandlers(_ready: () => StoreContext): ProviderHandlers {
  const missing = () => {
    throw new NotBuiltError('Providers are not available yet')
  }
  return {
    listProviders: () => [],
    saveProvider: missing,
    removeProvider: missing,
    listRemoteModels: missing,
    testConnection: missing,
    getSettings: () => ({ retryLimit: 8 }),
    setSetting: missing,
  }
}
