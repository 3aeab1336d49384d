// Zod-free and side-effect free: the settings UI (lazy chunk) and the worker both use this table.
import type { ModelCost, ModelInfo, ProviderType } from './schema'

/**
 * Well-known models with their limits and list prices (US dollars per million tokens, the shortest-context tier
 * where a provider has several), as the providers published them up to the end of 2025. Anything newer, or a
 * negotiated price, is edited per model in Settings; unknown models must be given limits there.
 */
export const CATALOG_DATE = '2025-12'

interface Entry {
  id: string
  name: string
  context: number
  output: number
  /** [input, output, cache read, cache write]; absent cache prices mean the provider does not bill them apart. */
  price: [number, number, number?, number?]
  reasoning?: boolean
  tools?: boolean
  aliases?: string[]
}

const OPENAI: Entry[] = [
  { id: 'gpt-5.2', name: 'GPT-5.2', context: 400_000, output: 128_000, price: [1.75, 14, 0.175], reasoning: true },
  { id: 'gpt-5.1', name: 'GPT-5.1', context: 400_000, output: 128_000, price: [1.25, 10, 0.125], reasoning: true },
  { id: 'gpt-5', name: 'GPT-5', context: 400_000, output: 128_000, price: [1.25, 10, 0.125], reasoning: true },
  { id: 'gpt-5-mini', name: 'GPT-5 mini', context: 400_000, output: 128_000, price: [0.25, 2, 0.025], reasoning: true },
  { id: 'gpt-5-nano', name: 'GPT-5 nano', context: 400_000, output: 128_000, price: [0.05, 0.4, 0.005], reasoning: true },
  { id: 'gpt-5-codex', name: 'GPT-5 Codex', context: 400_000, output: 128_000, price: [1.25, 10, 0.125], reasoning: true },
  {
    id: 'gpt-5-chat-latest',
    name: 'GPT-5 Chat',
    context: 128_000,
    output: 16_384,
    price: [1.25, 10, 0.125],
    aliases: ['gpt-5-chat'],
  },
  { id: 'gpt-4.1', name: 'GPT-4.1', context: 1_047_576, output: 32_768, price: [2, 8, 0.5] },
  { id: 'gpt-4.1-mini', name: 'GPT-4.1 mini', context: 1_047_576, output: 32_768, price: [0.4, 1.6, 0.1] },
  { id: 'gpt-4.1-nano', name: 'GPT-4.1 nano', context: 1_047_576, output: 32_768, price: [0.1, 0.4, 0.025] },
  { id: 'gpt-4o', name: 'GPT-4o', context: 128_000, output: 16_384, price: [2.5, 10, 1.25], aliases: ['chatgpt-4o-latest'] },
  { id: 'gpt-4o-mini', name: 'GPT-4o mini', context: 128_000, output: 16_384, price: [0.15, 0.6, 0.075] },
  { id: 'o3', name: 'o3', context: 200_000, output: 100_000, price: [2, 8, 0.5], reasoning: true },
  { id: 'o3-pro', name: 'o3-pro', context: 200_000, output: 100_000, price: [20, 80], reasoning: true },
  { id: 'o3-mini', name: 'o3-mini', context: 200_000, output: 100_000, price: [1.1, 4.4, 0.55], reasoning: true },
  { id: 'o4-mini', name: 'o4-mini', context: 200_000, output: 100_000, price: [1.1, 4.4, 0.275], reasoning: true },
  { id: 'o1', name: 'o1', context: 200_000, output: 100_000, price: [15, 60, 7.5], reasoning: true },
]

// Cache writes are the 5-minute tier (1.25 × input); reads are 0.1 × input.
const ANTHROPIC: Entry[] = [
  {
    id: 'claude-opus-4-5',
    name: 'Claude Opus 4.5',
    context: 200_000,
    output: 64_000,
    price: [5, 25, 0.5, 6.25],
    reasoning: true,
  },
  {
    id: 'claude-opus-4-1',
    name: 'Claude Opus 4.1',
    context: 200_000,
    output: 32_000,
    price: [15, 75, 1.5, 18.75],
    reasoning: true,
  },
  {
    id: 'claude-opus-4',
    name: 'Claude Opus 4',
    context: 200_000,
    output: 32_000,
    price: [15, 75, 1.5, 18.75],
    reasoning: true,
    aliases: ['claude-opus-4-0', 'claude-4-opus'],
  },
  {
    id: 'claude-sonnet-4-5',
    name: 'Claude Sonnet 4.5',
    context: 200_000,
    output: 64_000,
    price: [3, 15, 0.3, 3.75],
    reasoning: true,
  },
  {
    id: 'claude-sonnet-4',
    name: 'Claude Sonnet 4',
    context: 200_000,
    output: 64_000,
    price: [3, 15, 0.3, 3.75],
    reasoning: true,
    aliases: ['claude-sonnet-4-0', 'claude-4-sonnet'],
  },
  {
    id: 'claude-haiku-4-5',
    name: 'Claude Haiku 4.5',
    context: 200_000,
    output: 64_000,
    price: [1, 5, 0.1, 1.25],
    reasoning: true,
  },
  {
    id: 'claude-3-7-sonnet',
    name: 'Claude Sonnet 3.7',
    context: 200_000,
    output: 64_000,
    price: [3, 15, 0.3, 3.75],
    reasoning: true,
  },
  { id: 'claude-3-5-sonnet', name: 'Claude Sonnet 3.5', context: 200_000, output: 8_192, price: [3, 15, 0.3, 3.75] },
  { id: 'claude-3-5-haiku', name: 'Claude Haiku 3.5', context: 200_000, output: 8_192, price: [0.8, 4, 0.08, 1] },
  { id: 'claude-3-haiku', name: 'Claude Haiku 3', context: 200_000, output: 4_096, price: [0.25, 1.25, 0.03, 0.3] },
]

const GOOGLE: Entry[] = [
  {
    id: 'gemini-3-pro-preview',
    name: 'Gemini 3 Pro (preview)',
    context: 1_048_576,
    output: 65_536,
    price: [2, 12, 0.2],
    reasoning: true,
    aliases: ['gemini-3-pro'],
  },
  {
    id: 'gemini-2.5-pro',
    name: 'Gemini 2.5 Pro',
    context: 1_048_576,
    output: 65_536,
    price: [1.25, 10, 0.125],
    reasoning: true,
    aliases: ['gemini-pro-latest'],
  },
  {
    id: 'gemini-2.5-flash',
    name: 'Gemini 2.5 Flash',
    context: 1_048_576,
    output: 65_536,
    price: [0.3, 2.5, 0.03],
    reasoning: true,
    aliases: ['gemini-flash-latest'],
  },
  {
    id: 'gemini-2.5-flash-lite',
    name: 'Gemini 2.5 Flash-Lite',
    context: 1_048_576,
    output: 65_536,
    price: [0.1, 0.4, 0.01],
    aliases: ['gemini-flash-lite-latest'],
  },
  { id: 'gemini-2.0-flash', name: 'Gemini 2.0 Flash', context: 1_048_576, output: 8_192, price: [0.1, 0.4, 0.025] },
  { id: 'gemini-2.0-flash-lite', name: 'Gemini 2.0 Flash-Lite', context: 1_048_576, output: 8_192, price: [0.075, 0.3] },
]

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

type Family = 'openai' | 'anthropic' | 'google'
const FAMILIES: Record<Family, Entry[]> = { openai: OPENAI, anthropic: ANTHROPIC, google: GOOGLE }

const BY_ID = new Map<string, { entry: Entry; family: Family }>()
for (const [family, entries] of Object.entries(FAMILIES) as [Family, Entry[]][]) {
  for (const entry of entries) {
    for (const key of [entry.id, ...(entry.aliases ?? [])]) BY_ID.set(key, { entry, family })
  }
}

export type MatchSource = 'exact' | 'variant' | 'pattern'

export interface CatalogMatch {
  info: ModelInfo
  /** `exact`: the id is in the table; `variant`: a dated, prefixed or aliased form of one; `pattern`: an open model. */
  source: MatchSource
  /** The table entry (or open-model family) that matched. */
  catalogID: string
  /** Only hosted models carry list prices; open models match with limits and a price of 0. */
  priced: boolean
}

function toCost(price: Entry['price']): ModelCost {
  const [input, output, cacheRead, cacheWrite] = price
  return {
    input,
    output,
    ...(cacheRead !== undefined ? { cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWrite } : {}),
  }
}

function fromEntry(modelID: string, entry: Entry): ModelInfo {
  return {
    id: modelID,
    name: entry.name,
    limit: { context: entry.context, output: entry.output },
    cost: toCost(entry.price),
    tools: entry.tools ?? true,
    ...(entry.reasoning ? { reasoning: true } : {}),
  }
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
export function matchModel(_type: ProviderType, modelID: string): CatalogMatch | undefined {
  const id = modelID.trim()
  if (!id) return undefined
  const variants = variantsOf(id)
  for (const [index, variant] of variants.entries()) {
    const found = BY_ID.get(variant)
    if (!found) continue
    return {
      info: fromEntry(id, found.entry),
      source: index === 0 && variant === found.entry.id ? 'exact' : 'variant',
      catalogID: found.entry.id,
      priced: true,
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
export function lookupModel(type: ProviderType, modelID: string): ModelInfo | undefined {
  return matchModel(type, modelID)?.info
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

/** Every id in the table (for suggestions and tests). */
export function catalogIDs(): string[] {
  return [...OPENAI, ...ANTHROPIC, ...GOOGLE].map((entry) => entry.id)
}
