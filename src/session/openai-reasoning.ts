import type { SharedV4ProviderOptions as ProviderOptions } from '@ai-sdk/provider'
import type { CacheTarget } from './prompt-cache'

/**
 * opencode's options for OpenAI reasoning models on the Responses API: reasoning summaries stream (`reasoningSummary`),
 * and with nothing stored on OpenAI's side (`store: false`) each reasoning item comes back encrypted
 * (`include`), is kept in the reasoning part's metadata (`itemId`, `reasoningEncryptedContent`) and is sent back
 * whole in the next request, so a multi-step tool turn keeps its reasoning. Chat Completions, compatible servers
 * and non-reasoning models get nothing.
 */
export function openaiReasoningOptions(target: CacheTarget): ProviderOptions | undefined {
  if (target.provider !== 'openai.responses' || !isReasoningModel(target.modelID)) return undefined
  // Unlike opencode, item ids are not stripped from what goes back: with store false the SDK sends every item whole
  // (no item_reference), and a reasoning item needs its id next to its encrypted content.
  return { openai: { store: false, reasoningSummary: 'auto', include: ['reasoning.encrypted_content'] } }
}

/** gpt-5 and later (not `gpt-5-chat`, which does not reason: opencode's and the SDK's rule) and the o-series. */
export function isReasoningModel(modelID: string): boolean {
  const id = modelID.toLowerCase().replace(/^openai\//, '')
  if (/^o\d/.test(id)) return true
  const gpt = /^gpt-(\d+)/.exec(id)
  return !!gpt && Number(gpt[1]) >= 5 && !id.startsWith('gpt-5-chat')
}

/** Call-level options merged one level into each provider's key, so the cache key and these travel together. */
export function mergeCallOptions(...all: (ProviderOptions | undefined)[]): ProviderOptions | undefined {
  let merged: ProviderOptions | undefined
  for (const options of all) {
    if (!options) continue
    merged ??= {}
    for (const [provider, values] of Object.entries(options)) merged[provider] = { ...merged[provider], ...values }
  }
  return merged
}
