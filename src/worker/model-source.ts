import { redactSecrets } from '../provider/connection'
import { isLocalServerURL } from '../core/provider/presets'
import { makeModelResolver } from '../provider/language-model'
import type { StoreContext } from '../store/context'
import { findProvider, providerSource } from '../store/provider-store'
import type { ModelSource } from '../session/model-source'

/** The loop's models, backed by the providers configured in Settings (SDKs load on first use). */
export function makeModelSource(context: StoreContext): ModelSource {
  const resolver = makeModelResolver(providerSource(context))
  return {
    async resolve(reference) {
      const { model, info, providerID } = await resolver.resolve(reference)
      const provider = await findProvider(context, providerID)
      const key = provider?.apiKey
      return {
        redact: (text: string) => redactSecrets(text, [key]),
        local: isLocalServerURL(provider?.baseURL),
        model,
        providerID,
        modelID: info.id,
        limit: info.limit,
        cost: {
          input: info.cost.input,
          output: info.cost.output,
          ...(info.cost.cacheRead !== undefined ? { cacheRead: info.cost.cacheRead } : {}),
          ...(info.cost.cacheWrite !== undefined ? { cacheWrite: info.cost.cacheWrite } : {}),
          ...(info.cost.tiers ? { tiers: info.cost.tiers } : {}),
        },
      }
    },
    smallModel: (near) => resolver.smallModel(near),
  }
}
