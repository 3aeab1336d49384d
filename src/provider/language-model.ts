// Only types from `ai` here: the SDK packages are imported lazily, per provider type, the first time a model of
// that type is used, so neither the first screen nor the worker's start pays for them.
import type { LanguageModel } from 'ai'
import { InputError } from '../core/errors'
import type { ModelReference } from '../core/schema'
import { smallModelFor } from '../core/provider/catalog'
import { MissingApiKeyError, ModelNotFoundError } from '../core/provider/errors'
import { providerTypeInfo } from '../core/provider/presets'
import { providerFetch } from './provider-fetch'
import type { Settings } from '../core/protocol'
import type { ModelInfo, ProviderConfig, ProviderType } from '../core/provider/schema'
import { closeMatches } from '../core/provider/suggest'

/**
 * Where the configured providers and the model settings come from (the store, in the worker: `providerSource`).
 * Read on every call, so a provider saved in any tab is used at once.
 */
export interface ProviderSource {
  providers(): Promise<ProviderConfig[]>
  settings(): Promise<Pick<Settings, 'defaultModel' | 'smallModel'>>
}

/** A model object the SDK's `streamText` takes (never a bare id string). */
export type ProviderLanguageModel = Exclude<LanguageModel, string>

export interface LanguageModelOptions {
  /** Replaces `fetch` for the provider's requests (tests, or a wrapper that redacts or records). */
  fetch?: typeof fetch
}

/** The provider name OpenAI-compatible models carry: `providerOptions['openai-compatible']`, `openai-compatible.chat`. */
export const COMPATIBLE_PROVIDER_NAME = 'openai-compatible'

/**
 * The SDK model for one configured model. OpenAI goes through the Responses API (reasoning models stream their
 * reasoning summaries only there), while OpenAI-compatible servers keep Chat Completions, the one API they all
 * speak, and are asked for usage in the stream (`stream_options.include_usage`), without which token counts and cost
 * stay empty; Anthropic gets the header that allows calls straight from a browser. Every provider's requests go
 * through `providerFetch`.
 */
export async function createLanguageModel(
  config: ProviderConfig,
  modelID: string,
  options: LanguageModelOptions = {},
): Promise<ProviderLanguageModel> {
  const apiKey = config.apiKey || undefined
  if (!apiKey && providerTypeInfo(config.type).needsKey) throw new MissingApiKeyError(config.id, config.name)
  const baseURL = config.baseURL || undefined
  // Chat Completions streams (OpenAI-compatible servers) also have their deltas coalesced.
  const fetch = providerFetch(options.fetch, { coalesce: config.type === 'openai-compatible' })
  switch (config.type) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai')
      return createOpenAI({ apiKey, baseURL, fetch }).responses(modelID)
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic')
      return createAnthropic({
        apiKey,
        baseURL,
        fetch,
        headers: { 'anthropic-dangerous-direct-browser-access': 'true' },
      }).languageModel(modelID)
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google')
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch }).languageModel(modelID)
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible')
      if (!baseURL) throw new InputError('baseURL', `${config.name} has no base URL. Set one in Settings.`)
      return createOpenAICompatible({ name: COMPATIBLE_PROVIDER_NAME, baseURL, apiKey, fetch, includeUsage: true }).chatModel(
        modelID,
      )
    }
  }
}

export interface ResolvedModel {
  config: ProviderConfig
  info: ModelInfo
  model: ProviderLanguageModel
}

/**
 * Finds a referenced model among the configured ones and builds its SDK model. A provider or model that is gone
 * (removed in Settings, or named by an old message) fails with a ModelNotFoundError that suggests configured models.
 */
export async function resolveModel(
  source: Pick<ProviderSource, 'providers'>,
  reference: ModelReference,
  options: LanguageModelOptions = {},
): Promise<ResolvedModel> {
  const providers = await source.providers()
  const { config, info } = findConfigured(providers, reference)
  return { config, info, model: await createLanguageModel(config, info.id, options) }
}

function findConfigured(providers: ProviderConfig[], reference: ModelReference): { config: ProviderConfig; info: ModelInfo } {
  const { providerID, modelID } = reference
  const config = providers.find((provider) => provider.id === providerID)
  const info = config?.models.find((model) => model.id === modelID)
  if (config && info) return { config, info }
  const all = providers.flatMap((provider) => provider.models.map((model) => ({ provider, model })))
  const label = (entry: { provider: ProviderConfig; model: ModelInfo }) => `${entry.provider.name} / ${entry.model.id}`
  let candidates: { provider: ProviderConfig; model: ModelInfo }[]
  let message: string
  if (!config) {
    // The same model id under another provider (removed and added again) is the likeliest replacement.
    const same = all.filter((entry) => entry.model.id === modelID)
    const close = closeMatches(modelID, all.map((entry) => entry.model.id))
    candidates = [...same, ...close.flatMap((id) => all.filter((entry) => entry.model.id === id))]
    message = `The model “${modelID}” is not available: its provider is no longer configured.`
  } else {
    const own = config.models.map((model) => model.id)
    candidates = closeMatches(modelID, own).map((id) => ({ provider: config, model: config.models.find((model) => model.id === id)! }))
    message = `${config.name} has no model “${modelID}” configured.`
  }
  const suggestions = [...new Map(candidates.map((entry) => [label(entry), entry])).values()].slice(0, 3)
  if (suggestions.length) message += ` Did you mean ${suggestions.map((entry) => `“${label(entry)}”`).join(' or ')}?`
  message += all.length ? ' Choose another model, or add it in Settings.' : ' Add a provider in Settings.'
  throw new ModelNotFoundError(message, {
    providerID,
    modelID,
    suggestions: suggestions.map((entry) => `${entry.provider.id}/${entry.model.id}`),
  })
}

/** What the agent loop needs to know about models; `makeModelResolver` is the real one, tests may fake it. */
export interface ModelResolver {
  resolve(reference: ModelReference): Promise<{
    model: ProviderLanguageModel
    info: ModelInfo
    providerID: string
    /** Which API family answers (error wording, reasoning replay). */
    providerType: ProviderType
  }>
  /** The chosen default model, else the first model of the oldest provider; undefined with nothing configured. */
  defaultModel(): Promise<ModelReference | undefined>
  /**
   * The model for background work (titles): the chosen small model, else a cheap one (Gemini Flash, GPT
   * nano/mini, Claude Haiku), preferring the provider of `near`; undefined means "use the main model".
   */
  smallModel(near?: ModelReference): Promise<ModelReference | undefined>
}

export function makeModelResolver(source: ProviderSource, options: LanguageModelOptions = {}): ModelResolver {
  // SDK model objects are cheap but not free; reuse them until their provider's row changes.
  const cache = new Map<string, Promise<ProviderLanguageModel>>()
  const modelFor = (config: ProviderConfig, modelID: string) => {
    const key = `${config.id}\u0000${config.time.updated}\u0000${modelID}`
    let model = cache.get(key)
    if (!model) {
      if (cache.size > 32) cache.clear()
      model = createLanguageModel(config, modelID, options)
      model.catch(() => cache.delete(key))
      cache.set(key, model)
    }
    return model
  }

  const configured = (providers: ProviderConfig[], reference: ModelReference | undefined) =>
    reference && providers.some((provider) => provider.id === reference.providerID && provider.models.some((model) => model.id === reference.modelID))

  return {
    async resolve(reference) {
      const { config, info } = findConfigured(await source.providers(), reference)
      return { model: await modelFor(config, info.id), info, providerID: config.id, providerType: config.type }
    },
    async defaultModel() {
      const [providers, settings] = await Promise.all([source.providers(), source.settings()])
      if (configured(providers, settings.defaultModel)) return settings.defaultModel
      const first = providers.find((provider) => provider.models.length > 0)
      return first ? { providerID: first.id, modelID: first.models[0]!.id } : undefined
    },
    async smallModel(near) {
      const [providers, settings] = await Promise.all([source.providers(), source.settings()])
      if (configured(providers, settings.smallModel)) return settings.smallModel
      const ordered = [...providers].sort(
        (left, right) => Number(right.id === near?.providerID) - Number(left.id === near?.providerID),
      )
      for (const provider of ordered) {
        const small = smallModelFor(provider.models)
        if (small) return { providerID: provider.id, modelID: small.id }
      }
      return undefined
    },
  }
}
