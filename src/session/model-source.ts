import type { LanguageModel } from 'ai'
import type { ModelLimit } from '../core/compaction/overflow'
import type { ModelReference } from '../core/schema'
import type { Prices } from '../core/usage'

export interface ResolvedModel {
  model: LanguageModel
  providerID: string
  modelID: string
  /** `context` 0 means unknown (never compacted automatically); `input` is set for models with a separate input cap. */
  limit: ModelLimit
  cost: Prices
  /** Removes this provider's secrets from text (error bodies can echo the key back). */
  redact?: (text: string) => string
  /** The provider runs on this machine or its network (a local model server), so it can answer while offline. */
  local?: boolean
}

/** How the loop reaches models; the worker backs it with the configured providers, tests with mock models. */
export interface ModelSource {
  resolve(reference: ModelReference): Promise<ResolvedModel>
  /** The model for titles, preferably from the provider of `near`; undefined to use the conversation's own model. */
  smallModel(near?: ModelReference): Promise<ModelReference | undefined>
}
