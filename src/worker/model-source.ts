import type { StoreContext } from '../session/context'
import type { ModelSource } from '../session/loop'

/** The loop's models, backed by the providers configured in Settings. */
export function makeModelSource(_context: StoreContext): ModelSource {
  return {
    resolve: async () => {
      throw new Error('Providers are being set up')
    },
    smallModel: async () => undefined,
  }
}
