import { z } from 'zod'
import { describeIssues } from '../errors'
import { ModelFactsError } from './errors'
import { FACT_PROVIDERS, type FactPrice, type FactProvider, type FactTier, type ModelFact, type ModelFacts } from './model-facts'

/**
 * models.dev's api.json is untrusted input: a file of a few MB from a server (or a mirror) the user named. Only the
 * facts below are read from it, only for FACT_PROVIDERS; everything else in it, the providers' API addresses,
 * packages and environment variable names included, is ignored, so an update can change numbers and nothing else.
 */
export const MAX_MODEL_FACTS_BYTES = 16 * 1024 * 1024
const MAX_MODELS_PER_PROVIDER = 5_000
const MAX_TIERS = 20

const price = z.number().nonnegative().max(1_000_000)
const tokens = z.number().int().nonnegative().max(1_000_000_000)
const date = z.string().regex(/^\d{4}-\d{2}(-\d{2})?$/, 'expected YYYY-MM or YYYY-MM-DD')
const modality = z.string().min(1).max(20)

const ApiPriceSchema = z.object({
  input: price,
  output: price,
  cache_read: price.optional(),
  cache_write: price.optional(),
})

const ApiModelSchema = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  reasoning: z.boolean().optional(),
  tool_call: z.boolean().optional(),
  knowledge: date.optional(),
  release_date: date.optional(),
  modalities: z.object({ input: z.array(modality).max(10), output: z.array(modality).max(10) }).optional(),
  limit: z.object({ context: tokens, output: tokens, input: tokens.optional() }),
  cost: ApiPriceSchema.extend({
    // The exact context tiers; `context_over_200k` is the older spelling of a single one at 200k.
    tiers: z
      .array(ApiPriceSchema.extend({ tier: z.object({ type: z.string().max(40).optional(), size: tokens }) }))
      .max(MAX_TIERS)
      .optional(),
    context_over_200k: ApiPriceSchema.optional(),
  }).optional(),
})

const ApiProviderSchema = z.object({ models: z.record(z.string(), z.unknown()) })

function priceOf(cost: z.infer<typeof ApiPriceSchema>): FactPrice {
  return {
    input: cost.input,
    output: cost.output,
    ...(cost.cache_read !== undefined ? { cacheRead: cost.cache_read } : {}),
    ...(cost.cache_write !== undefined ? { cacheWrite: cost.cache_write } : {}),
  }
}

/**
 * The context tiers, as one list that core/usage.ts's `priceFor` reads with opencode's result: opencode takes the
 * largest context tier the input is over and, only when none is, `context_over_200k` over 200k. So the over-200k
 * table is a tier at 200k unless a tier at or below 200k exists (that one would win over 200k anyway).
 */
function tiersOf(cost: NonNullable<z.infer<typeof ApiModelSchema>['cost']>): FactTier[] {
  const tiers: FactTier[] = (cost.tiers ?? [])
    .filter((tier) => (tier.tier.type ?? 'context') === 'context')
    .map((tier) => ({ above: tier.tier.size, ...priceOf(tier) }))
  if (cost.context_over_200k && !tiers.some((tier) => tier.above <= 200_000)) tiers.push({ above: 200_000, ...priceOf(cost.context_over_200k) })
  return tiers.sort((left, right) => left.above - right.above)
}

function factOf(model: z.infer<typeof ApiModelSchema>): ModelFact {
  const tiers = model.cost ? tiersOf(model.cost) : []
  return {
    id: model.id,
    name: model.name,
    limit: { context: model.limit.context, output: model.limit.output, ...(model.limit.input !== undefined ? { input: model.limit.input } : {}) },
    ...(model.cost ? { cost: { ...priceOf(model.cost), ...(tiers.length ? { tiers } : {}) } } : {}),
    modalities: model.modalities ?? { input: ['text'], output: ['text'] },
    reasoning: model.reasoning ?? false,
    tools: model.tool_call ?? false,
    ...(model.release_date ? { released: model.release_date } : {}),
    ...(model.knowledge ? { knowledge: model.knowledge } : {}),
  }
}

/**
 * The facts in an api.json-shaped object (models.dev's file, or the built-in snapshot, which has its shape). A model
 * it cannot read rejects the whole file, naming it: half-updated facts would be worse than the old ones.
 */
export function factsFromApi(api: unknown, meta: { date: string; source: string }): ModelFacts {
  if (api === null || typeof api !== 'object' || Array.isArray(api)) throw new ModelFactsError('the file is not an object of providers.')
  const providers = {} as Record<FactProvider, ModelFact[]>
  let found = 0
  for (const provider of FACT_PROVIDERS) {
    const raw = (api as Record<string, unknown>)[provider]
    providers[provider] = []
    if (raw === undefined) continue
    const parsed = ApiProviderSchema.safeParse(raw)
    if (!parsed.success) throw new ModelFactsError(`${provider}: ${describeIssues(parsed.error)}`)
    const entries = Object.entries(parsed.data.models)
    if (entries.length > MAX_MODELS_PER_PROVIDER) throw new ModelFactsError(`${provider} lists ${entries.length} models, more than ${MAX_MODELS_PER_PROVIDER}.`)
    found++
    for (const [key, value] of entries) {
      const model = ApiModelSchema.safeParse(value)
      if (!model.success) throw new ModelFactsError(`${provider} › ${key.slice(0, 200)}: ${describeIssues(model.error)}`)
      providers[provider].push(factOf(model.data))
    }
  }
  if (found === 0) throw new ModelFactsError(`the file lists none of the providers tabcode reads (${FACT_PROVIDERS.join(', ')}).`)
  return { type: 'model-facts', date: meta.date, source: meta.source, providers }
}

/** A fetched file's text: at most MAX_MODEL_FACTS_BYTES, JSON, then `factsFromApi`. */
export function factsFromText(text: string, meta: { date: string; source: string }): ModelFacts {
  if (text.length > MAX_MODEL_FACTS_BYTES) throw new ModelFactsError(`the file is larger than ${MAX_MODEL_FACTS_BYTES / 1024 / 1024} MB.`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ModelFactsError('the file is not JSON.')
  }
  return factsFromApi(json, meta)
}

const FactPriceSchema = z.object({ input: price, output: price, cacheRead: price.optional(), cacheWrite: price.optional() })

const ModelFactSchema = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  limit: z.object({ context: tokens, output: tokens, input: tokens.optional() }),
  cost: FactPriceSchema.extend({ tiers: z.array(FactPriceSchema.extend({ above: tokens })).max(MAX_TIERS).optional() }).optional(),
  modalities: z.object({ input: z.array(modality).max(10), output: z.array(modality).max(10) }),
  reasoning: z.boolean(),
  tools: z.boolean(),
  released: date.optional(),
  knowledge: date.optional(),
})

/** The facts as stored (the `model.facts` setting row). */
export const ModelFactsSchema: z.ZodType<ModelFacts> = z.object({
  type: z.literal('model-facts'),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  source: z.string().min(1).max(2_000),
  providers: z.object(
    Object.fromEntries(FACT_PROVIDERS.map((provider) => [provider, z.array(ModelFactSchema).max(MAX_MODELS_PER_PROVIDER)])) as Record<
      FactProvider,
      z.ZodArray<typeof ModelFactSchema>
    >,
  ),
})
