// Zod-free and side-effect free apart from the table in use: the settings UI (lazy chunk) and the worker both use it.
import { FACT_PROVIDERS, type FactProvider, type ModelFact, type ModelFacts } from './model-facts'
import { presetForURL } from './presets'
import type { ModelCost, ModelInfo, ProviderType } from './schema'

/**
 * Well-known models with their limits and list prices (US dollars per million tokens; the lowest context tier where
 * a model has several, with its higher context tiers beside them), from models.dev: the snapshot built into the app, or the file the user fetched with "Update
 * model facts". Lookups are synchronous (the provider form asks as the user types), so the facts are handed in once
 * loaded (`useModelFacts`: the worker's store loads them, the settings view gets them from the worker); until then
 * only the open-model patterns below answer. A negotiated price is edited per model in Settings.
 */
interface Index {
  facts: ModelFacts | undefined
  /** Per provider: lower-cased id → fact, and the bare form of each id (no date or channel) → its newest fact. */
  byID: Map<FactProvider, Map<string, ModelFact>>
  byBase: Map<FactProvider, Map<string, ModelFact>>
}

let index: Index = { facts: undefined, byID: new Map(), byBase: new Map() }

/** Models that chat in text: embeddings, speech, image makers and realtime models have other shapes of request. */
const NOT_FOR_CHAT = /embedding|tts|transcribe|whisper|image|realtime|audio/

function chats(fact: ModelFact): boolean {
  return (
    fact.limit.context > 0 &&
    fact.limit.output > 0 &&
    fact.modalities.input.includes('text') &&
    fact.modalities.output.includes('text') &&
    !NOT_FOR_CHAT.test(fact.id.toLowerCase())
  )
}

/** Makes `facts` the table every lookup in this thread reads. */
export function useModelFacts(facts: ModelFacts): void {
  const byID = new Map<FactProvider, Map<string, ModelFact>>()
  const byBase = new Map<FactProvider, Map<string, ModelFact>>()
  for (const provider of FACT_PROVIDERS) {
    const ids = new Map<string, ModelFact>()
    const bases = new Map<string, ModelFact>()
    for (const fact of facts.providers[provider]) {
      if (!chats(fact)) continue
      const id = fact.id.toLowerCase()
      ids.set(id, fact)
      // claude-sonnet-4-0 and claude-sonnet-4-20250514 are both claude-sonnet-4; the undated id, else the newest, wins.
      const base = variantsOf(id).at(-1)!.replace(/-0$/, '')
      const held = bases.get(base)
      const undated = (candidate: ModelFact) => candidate.id.toLowerCase() === base
      if (!held || (!undated(held) && (undated(fact) || (fact.released ?? '') > (held.released ?? '')))) bases.set(base, fact)
    }
    byID.set(provider, ids)
    byBase.set(provider, bases)
  }
  index = { facts, byID, byBase }
}

/** The facts lookups read, or undefined before any were handed in. */
export function modelFactsInUse(): ModelFacts | undefined {
  return index.facts
}

interface Pattern {
  pattern: RegExp
  name: string
  context: number
  output: number
  reasoning?: boolean
  tools?: boolean
}

/**
 * Open-weight models as local servers name them (`llama3.2:3b`, `qwen2.5-coder:14b`, `meta-llama/llama-3.3-70b`):
 * native limits only, price 0 (a host that bills for them gets its prices typed in). Most specific first.
 */
const OPEN_MODELS: Pattern[] = [
  { pattern: /gpt-oss/, name: 'gpt-oss', context: 131_072, output: 32_768, reasoning: true },
  { pattern: /qwen-?3-?coder/, name: 'Qwen3 Coder', context: 262_144, output: 65_536 },
  { pattern: /qwen-?3/, name: 'Qwen3', context: 40_960, output: 16_384, reasoning: true },
  { pattern: /qwq/, name: 'QwQ', context: 131_072, output: 32_768, reasoning: true },
  { pattern: /qwen-?2\.5-?coder/, name: 'Qwen2.5 Coder', context: 32_768, output: 8_192 },
  { pattern: /qwen/, name: 'Qwen', context: 32_768, output: 8_192 },
  { pattern: /llama-?4/, name: 'Llama 4', context: 131_072, output: 8_192 },
  { pattern: /llama-?3[.-]?[123]/, name: 'Llama 3.x', context: 131_072, output: 8_192 },
  { pattern: /codellama|code-llama/, name: 'Code Llama', context: 16_384, output: 4_096, tools: false },
  { pattern: /llama-?3/, name: 'Llama 3', context: 8_192, output: 4_096, tools: false },
  { pattern: /llama/, name: 'Llama', context: 4_096, output: 2_048, tools: false },
  { pattern: /devstral/, name: 'Devstral', context: 131_072, output: 8_192 },
  { pattern: /codestral/, name: 'Codestral', context: 32_768, output: 8_192 },
  { pattern: /mistral-nemo/, name: 'Mistral Nemo', context: 131_072, output: 8_192 },
  { pattern: /mistral-(small|medium|large)/, name: 'Mistral', context: 131_072, output: 8_192 },
  { pattern: /mixtral/, name: 'Mixtral', context: 32_768, output: 8_192 },
  { pattern: /mistral/, name: 'Mistral', context: 32_768, output: 8_192 },
  { pattern: /deepseek-?(r1|reasoner)/, name: 'DeepSeek R1', context: 131_072, output: 32_768, reasoning: true },
  { pattern: /deepseek-?coder-?v2/, name: 'DeepSeek Coder V2', context: 163_840, output: 8_192 },
  { pattern: /deepseek-?coder/, name: 'DeepSeek Coder', context: 16_384, output: 4_096, tools: false },
  { pattern: /deepseek/, name: 'DeepSeek', context: 131_072, output: 8_192 },
  { pattern: /gemma-?3n/, name: 'Gemma 3n', context: 32_768, output: 8_192, tools: false },
  { pattern: /gemma-?3/, name: 'Gemma 3', context: 131_072, output: 8_192, tools: false },
  { pattern: /gemma/, name: 'Gemma', context: 8_192, output: 4_096, tools: false },
]


export type MatchSource = 'exact' | 'variant' | 'pattern'

export interface CatalogMatch {
  info: ModelInfo
  /** `exact`: the id is in the table; `variant`: a dated, prefixed or aliased form of one; `pattern`: an open model. */
  source: MatchSource
  /** The table entry (or open-model family) that matched. */
  catalogID: string
  /** Models with a price in the facts; open models match with limits and a price of 0. */
  priced: boolean
  /** All models.dev says of it (modalities, dates, context tiers); absent for an open-model pattern. */
  fact?: ModelFact
  /** Whose list it came from. */
  provider?: FactProvider
}

export interface MatchOptions {
  /** The provider's base URL: an OpenAI-compatible host models.dev lists (Groq, OpenRouter) is looked up in its own list. */
  baseURL?: string | undefined
}

function fromFact(modelID: string, fact: ModelFact): ModelInfo {
  const cost: ModelCost = fact.cost
    ? {
        input: fact.cost.input,
        output: fact.cost.output,
        ...(fact.cost.cacheRead !== undefined ? { cacheRead: fact.cost.cacheRead } : {}),
        ...(fact.cost.cacheWrite !== undefined ? { cacheWrite: fact.cost.cacheWrite } : {}),
        ...(fact.cost.tiers?.length ? { tiers: fact.cost.tiers.map((tier) => ({ ...tier })) } : {}),
      }
    : { input: 0, output: 0 }
  return {
    id: modelID,
    name: fact.name,
    limit: { context: fact.limit.context, output: Math.min(fact.limit.output, fact.limit.context) },
    cost,
    tools: fact.tools,
    ...(fact.reasoning ? { reasoning: true } : {}),
  }
}

/** The lists to search, most specific first: the provider's own, then the first-party ones a prefixed id may name. */
function listsFor(type: ProviderType, baseURL: string | undefined): FactProvider[] {
  const preset = type === 'openai-compatible' ? presetForURL(baseURL)?.id : undefined
  const host: FactProvider[] = preset === 'groq' || preset === 'openrouter' ? [preset] : []
  const own: FactProvider[] = type === 'openai' || type === 'anthropic' || type === 'google' ? [type] : []
  const firstParty: FactProvider[] = ['openai', 'anthropic', 'google']
  return [...host, ...own, ...firstParty.filter((provider) => !own.includes(provider))]
}

/** Suffixes that name a snapshot or channel of a model rather than another model. */
const VARIANT_SUFFIXES = [
  /-latest$/,
  /@\d{8}$/, // Vertex: claude-3-5-sonnet@20240620
  /-v\d+(:\d+)?$/, // Bedrock: …-20241022-v2:0
  /-\d{4}-\d{2}-\d{2}$/, // OpenAI: gpt-4o-2024-08-06
  /-\d{8}$/, // Anthropic: claude-sonnet-4-20250514
  /-preview-\d{2}-\d{2}$/, // Gemini: gemini-2.5-flash-preview-05-20
  /-preview-\d{2}-\d{4}$/,
  /-exp(-\d{2}-\d{2}|-\d{4})?$/,
  /-\d{3}$/, // Gemini: gemini-2.0-flash-001
  /-preview$/,
]

/** Spellings of one id, most literal first: without a vendor prefix, a tag, a date or a channel suffix. */
function variantsOf(modelID: string): string[] {
  const seen: string[] = []
  const add = (candidate: string) => {
    if (candidate && !seen.includes(candidate)) seen.push(candidate)
  }
  let current = modelID.toLowerCase()
  add(current)
  // openai/gpt-4o, models/gemini-2.5-flash, meta-llama/llama-3.3-70b
  current = current.slice(current.lastIndexOf('/') + 1)
  add(current)
  // Bedrock: anthropic.claude-…, us.anthropic.claude-…
  current = current.replace(/^(?:[a-z]{2}\.)?anthropic\./, '')
  add(current)
  // Ollama and OpenRouter tags: llama3.2:3b, gpt-oss:20b, …:free, …:thinking
  if (!/-v\d+:\d+$/.test(current)) current = current.replace(/:[^:]*$/, '')
  add(current)
  // OpenRouter writes Claude versions with dots: claude-3.5-sonnet, claude-sonnet-4.5
  if (current.includes('claude')) {
    current = current.replace(/(\d)\.(\d)/g, '$1-$2')
    add(current)
  }
  for (let changed = true; changed; ) {
    changed = false
    for (const suffix of VARIANT_SUFFIXES) {
      const stripped = current.replace(suffix, '')
      if (stripped !== current && stripped.length > 0) {
        current = stripped
        add(current)
        changed = true
      }
    }
  }
  return seen
}

/** Finds what the table knows about a model: exact id, then its dated or prefixed variants, then open-model patterns. */
export function matchModel(type: ProviderType, modelID: string, options: MatchOptions = {}): CatalogMatch | undefined {
  const id = modelID.trim()
  if (!id) return undefined
  const variants = variantsOf(id)
  const lists = listsFor(type, options.baseURL)
  // A host's own list answers only its exact ids: its prices are its own, not the model maker's.
  const [first] = lists
  const hostOnly = first === 'groq' || first === 'openrouter' ? first : undefined
  for (const provider of lists) {
    const ids = index.byID.get(provider)
    const bases = index.byBase.get(provider)
    if (!ids || !bases) continue
    const candidates = provider === hostOnly ? [id.toLowerCase()] : variants
    for (const [position, variant] of candidates.entries()) {
      const fact = ids.get(variant) ?? (provider === hostOnly ? undefined : bases.get(variant))
      if (!fact) continue
      return {
        info: fromFact(id, fact),
        source: position === 0 && variant === fact.id.toLowerCase() && id === fact.id ? 'exact' : 'variant',
        catalogID: fact.id,
        priced: fact.cost !== undefined,
        fact,
        provider,
      }
    }
  }
  // Patterns look at the bare name, so a vendor prefix (`openai/` in `openai/gpt-oss-20b`) doesn't hide it.
  const bare = id.toLowerCase().slice(id.lastIndexOf('/') + 1)
  for (const open of OPEN_MODELS) {
    if (!open.pattern.test(bare)) continue
    return {
      // No name: the family label ("Llama 3.x") is not this model's name.
      info: {
        id,
        limit: { context: open.context, output: open.output },
        cost: { input: 0, output: 0 },
        tools: open.tools ?? true,
        ...(open.reasoning ? { reasoning: true } : {}),
      },
      source: 'pattern',
      catalogID: open.name,
      priced: false,
    }
  }
  return undefined
}

/** Limits and prices for a model id, or undefined when the table doesn't know it (the user must enter limits). */
export function lookupModel(type: ProviderType, modelID: string, options: MatchOptions = {}): ModelInfo | undefined {
  return matchModel(type, modelID, options)?.info
}

/** Cheap and quick models for titles, best tier first; within a tier the cheapest non-reasoning model wins. */
const SMALL_MODEL_TIERS: RegExp[] = [/gemini-[\w.-]*flash/, /gpt-[\w.-]*(nano|mini)/, /claude-[\w.-]*haiku|haiku/]
const NOT_FOR_TEXT = /realtime|audio|tts|transcribe|search|image|embedding/

/**
 * A cheap model among the configured ones for background work (session titles): a Gemini Flash, then a GPT
 * nano/mini, then a Claude Haiku; undefined when none is configured (the caller then uses the main model).
 */
export function smallModelFor<T extends { id: string; cost?: ModelCost; reasoning?: boolean }>(
  models: readonly T[],
): T | undefined {
  for (const tier of SMALL_MODEL_TIERS) {
    const candidates = models
      .map((model, index) => {
        const bare = model.id.toLowerCase().slice(model.id.lastIndexOf('/') + 1)
        if (!tier.test(bare) || NOT_FOR_TEXT.test(bare)) return undefined
        const known = model.cost ? model : lookupModel('openai-compatible', model.id)
        const price = known?.cost ? known.cost.input + known.cost.output : Number.POSITIVE_INFINITY
        return { model, index, price, reasoning: (model.reasoning ?? known?.reasoning) === true }
      })
      .filter((candidate) => candidate !== undefined)
    candidates.sort(
      (left, right) =>
        Number(left.reasoning) - Number(right.reasoning) || left.price - right.price || left.index - right.index,
    )
    if (candidates[0]) return candidates[0].model
  }
  return undefined
}

/** Every chat model id in the facts in use, first-party providers first (for suggestions and tests). */
export function catalogIDs(): string[] {
  return FACT_PROVIDERS.flatMap((provider) => [...(index.byID.get(provider)?.values() ?? [])].map((fact) => fact.id))
}
