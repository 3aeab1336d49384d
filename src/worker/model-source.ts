import { redactSecrets } from '../provider/connection'
import { makeModelResolver } from '../provider/language-model'
import type { StoreContext } from '../store/context'
import { findProvider, providerSource } from '../store/provider-store'
import type { ModelSource } from '../runtime/model-source'

/** The loop's models, backed by the providers configured in Settings (SDKs load on first use). */
export function makeModelSource(context: StoreContext): ModelSource {
  const resolver = makeModelResolver(providerSource(context))
  return {
    async resolve(reference) {
      const { model, info, providerID } = await resolver.resolve(reference)
      const key = (await findProvider(context, providerID))?.apiKey
      return {
        redact: (text: string) => redactSecrets(text, [key]),
        model,
        providerID,
        modelID: info.id,
        limit: info.limit,
        cost: {
          input: info.cost.input,
          output: info.cost.output,
          ...(info.cost.cacheRead !== undefined ? { cacheRead: info.cost.cacheRead } : {}),
          ...(info.cost.cacheWrite !== undefined ? { cacheWrite: info.cost.cacheWrite } : {}),
        },
      }
    },
    smallModel: (near) => resolver.smallModel(near),
  }
}
