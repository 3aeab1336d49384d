import type { Handlers } from '../core/protocol/base'
import type { UsageApi, UsageQuery } from '../core/protocol/usage'
import type { StoreContext } from '../store/context'
import { readUsage } from '../store/usage-store'

/** The usage view's read (`UsageApi`), answered by the worker's entry from the store alone: offline, and without the engine. */
export function usageHandlers(ready: () => StoreContext): Handlers<UsageApi> {
  return {
    usageReport: (query: UsageQuery) => readUsage(ready(), query),
  }
}
