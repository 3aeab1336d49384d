import { liveQuery } from 'dexie'
import { z } from 'zod'
import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { describeIssues, InputError, NotFoundError, parseWith } from '../core/errors'
import { ascending } from '../core/id'
import { SettingSchema, type ModelReference, type Setting } from '../core/schema'
import type { ProviderInput, ProviderSummary } from '../core/protocol'
import { lookupModel } from '../core/provider/catalog'
import { providerTypeInfo } from '../core/provider/presets'
import {
  MAX_COST_TIERS,
  ModelCostTierSchema,
  ProviderConfigSchema,
  ProviderTypeSchema,
  type ModelCostTier,
  type ModelInfo,
  type ProviderConfig,
} from '../core/provider/schema'
import { closeMatches } from '../core/provider/suggest'

import { settingsFromRows, type Settings } from '../core/settings'
import { write } from './transaction'
import { loadModelFacts, MODEL_FACTS_KEY } from './model-facts-store'

export { DEFAULT_RETRY_LIMIT } from '../core/settings'
export const MAX_MODELS_PER_PROVIDER = 1000

const optionalCount = z.number().int().positive().optional()
const optionalPrice = z.number().nonnegative().optional()

/** What the settings form sends: limits and prices may be missing for models the model facts know. */
const ModelInputSchema = z.object({
  id: z.string().trim().min(1, 'a model needs an id'),
  name: z.string().trim().optional(),
  limit: z.object({ context: optionalCount, output: optionalCount }).optional(),
  cost: z
    .object({
      input: optionalPrice,
      output: optionalPrice,
      cacheRead: optionalPrice,
      cacheWrite: optionalPrice,
      tiers: z.array(ModelCostTierSchema).max(MAX_COST_TIERS).optional(),
    })
    .optional(),
  tools: z.boolean().optional(),
  reasoning: z.boolean().optional(),
})

const ProviderInputSchema = z.object({
  id: z.string().optional(),
  type: ProviderTypeSchema,
  name: z.string().trim().min(1, 'a provider needs a name').max(100),
  baseURL: z.string().trim().optional(),
  apiKey: z.string().nullable().optional(),
  models: z.array(ModelInputSchema).max(MAX_MODELS_PER_PROVIDER),
})

/** The form's view of a provider: everything but the key, which only goes in. */
export function summarize(config: ProviderConfig): ProviderSummary {
  const { apiKey, ...rest } = config
  return { ...rest, hasKey: !!apiKey }
}

export async function listProviders(context: StoreContext): Promise<ProviderSummary[]> {
  return (await loadProviders(context.db)).map(summarize)
}

/** Every configured provider, oldest first (ids are ascending, so key order is creation order). */
export function loadProviders(db: TabcodeDatabase): Promise<ProviderConfig[]> {
  return db.providers.toArray()
}

/** The providers and model settings as the model resolver reads them (provider/language-model.ts). */
export function providerSource(context: StoreContext) {
  return {
    providers: () => loadProviders(context.db),
    settings: () => getSettings(context),
  }
}

/** A configured provider, if it is. */
export function findProvider(context: Pick<StoreContext, 'db'>, providerID: string): Promise<ProviderConfig | undefined> {
  return context.db.providers.get(providerID)
}

/** Calls `next` with the stored API keys now and whenever any tab changes them, until unsubscribed. */
export function watchApiKeys(
  db: TabcodeDatabase,
  observer: { next: (keys: string[]) => void; error: (error: unknown) => void },
): { unsubscribe(): void } {
  return liveQuery(() => db.providers.toArray()).subscribe({
    next: (providers) => observer.next(providers.flatMap((provider) => (provider.apiKey ? [provider.apiKey] : []))),
    error: observer.error,
  })
}

export async function getProvider(context: StoreContext, providerID: string): Promise<ProviderConfig> {
  const config = await context.db.providers.get(providerID)
  if (!config) throw new NotFoundError('provider', providerID)
  return config
}

/**
 * Adds or updates a provider. A new key replaces the stored one, `null` removes it and an absent (or blank) key
 * keeps it. Models the model facts know get their limits and prices where the form left them out; unknown models
 * must come with limits. Settings that pointed at a model the provider no longer has are cleared with it.
 */
export async function saveProvider(context: StoreContext, input: ProviderInput): Promise<ProviderSummary> {
  const parsed = ProviderInputSchema.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new InputError(issue?.path.map(String).join('.') || 'provider', `Invalid provider: ${describeIssues(parsed.error)}`)
  }
  const draft = parsed.data
  const baseURL = normalizeBaseURL(draft.type, draft.baseURL)
  await loadModelFacts(context)
  const models = completeModels(draft.type, baseURL, draft.models)
  const now = context.now()
  const { db } = context
  const saved = await write(context, [db.providers, db.settings], async () => {
    const current = draft.id ? await db.providers.get(draft.id) : undefined
    if (draft.id && !current) throw new NotFoundError('provider', draft.id)
    const apiKey = nextKey(current?.apiKey, draft.apiKey)
    if (!apiKey && providerTypeInfo(draft.type).needsKey) {
      throw new InputError('apiKey', `${providerTypeInfo(draft.type).label} needs an API key.`)
    }
    const candidate: ProviderConfig = {
      id: current?.id ?? ascending('provider', now),
      type: draft.type,
      name: draft.name,
      ...(baseURL ? { baseURL } : {}),
      ...(apiKey ? { apiKey } : {}),
      models,
      time: { created: current?.time.created ?? now, updated: Math.max(now, current?.time.updated ?? now) },
    }
    const config = parseWith(ProviderConfigSchema, candidate, 'provider')
    await db.providers.put(config)
    await clearDanglingSettings(db, (reference) => reference.providerID === config.id && !hasModel(config, reference.modelID))
    return config
  })
  return summarize(saved)
}

/** Removes a provider and the default or small model settings that pointed at it. */
export async function removeProvider(context: StoreContext, providerID: string): Promise<void> {
  const { db } = context
  await write(context, [db.providers, db.settings], async () => {
    if (!(await db.providers.get(providerID))) throw new NotFoundError('provider', providerID)
    await db.providers.delete(providerID)
    await clearDanglingSettings(db, (reference) => reference.providerID === providerID)
  })
}

export async function getSettings(context: StoreContext): Promise<Settings> {
  // Every turn reads the settings: the model facts (a few hundred KB) are left on disk.
  return settingsFromRows(await context.db.settings.where(':id').noneOf([MODEL_FACTS_KEY]).toArray())
}

/** Stores one setting; a default or small model must name a configured provider and one of its models. */
export async function setSetting(context: StoreContext, input: Setting): Promise<Settings> {
  const setting = parseWith(SettingSchema, input, 'setting')
  // Its header values are kept by saveMcpServer when the page sends none; a whole-row write would lose or bypass them.
  if (setting.key === 'mcp.servers') throw new InputError('key', 'MCP servers are saved one at a time, with saveMcpServer.')
  if (setting.key === 'mcp.oauth') throw new InputError('key', 'MCP sign-ins are made and forgotten in Settings, not written as a setting.')
  if (setting.key === 'model.facts') throw new InputError('key', 'Model facts are stored by "Update model facts", after they are checked.')
  if (setting.key === 'git.tokens') throw new InputError('key', 'Git tokens are kept when a server accepts one, and removed in Settings.')
  if (setting.key === 'git.corsProxy' && setting.value !== '' && !/^https?:\/\/[^\s/]+/.test(setting.value)) {
    throw new InputError('git.corsProxy', `The CORS proxy must be an http:// or https:// URL; “${setting.value}” is not.`)
  }
  const { db } = context
  await write(context, [db.providers, db.settings], async () => {
    if (setting.key === 'model.default' || setting.key === 'model.small') {
      await assertConfigured(db, setting.key, setting.value)
    }
    await db.settings.put(setting)
  })
  return getSettings(context)
}

async function assertConfigured(db: TabcodeDatabase, field: string, reference: ModelReference): Promise<void> {
  const providers = await loadProviders(db)
  const provider = providers.find((config) => config.id === reference.providerID)
  const what = field === 'model.default' ? 'default model' : 'small model'
  if (!provider) {
    throw new InputError(field, `The ${what} must belong to a configured provider; ${reference.providerID} is not one.`)
  }
  if (hasModel(provider, reference.modelID)) return
  const suggestions = closeMatches(reference.modelID, provider.models.map((model) => model.id))
  throw new InputError(
    field,
    `The ${what} must be one of ${provider.name}'s models; “${reference.modelID}” is not.` +
      (suggestions.length ? ` Did you mean ${suggestions.map((id) => `“${id}”`).join(' or ')}?` : ''),
  )
}

export function hasModel(config: ProviderConfig, modelID: string): boolean {
  return config.models.some((model) => model.id === modelID)
}

async function clearDanglingSettings(db: TabcodeDatabase, dangling: (reference: ModelReference) => boolean) {
  for (const key of ['model.default', 'model.small'] as const) {
    const row = await db.settings.get(key)
    if (row && (row.key === 'model.default' || row.key === 'model.small') && dangling(row.value)) {
      await db.settings.delete(key)
    }
  }
}

function nextKey(stored: string | undefined, incoming: string | null | undefined): string | undefined {
  if (incoming === null) return undefined
  // Pasted keys often carry the header's "Bearer " or a trailing newline.
  const key = incoming?.trim().replace(/^Bearer\s+/i, '')
  return key ? key : stored
}

function normalizeBaseURL(type: ProviderConfig['type'], raw: string | undefined): string | undefined {
  const value = raw?.trim()
  if (!value) {
    if (type === 'openai-compatible') {
      throw new InputError(
        'baseURL',
        'An OpenAI-compatible provider needs a base URL, such as http://localhost:11434/v1 for Ollama.',
      )
    }
    return undefined
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InputError('baseURL', `“${value}” is not a URL; it should look like https://host/v1.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError('baseURL', 'The base URL must start with http:// or https://.')
  }
  if (url.username || url.password) {
    throw new InputError('baseURL', 'Put the key in the API key field, not in the base URL.')
  }
  // People paste an endpoint instead of the API root; the SDKs add the path themselves.
  const path = url.pathname.replace(/\/(chat\/completions|completions|models|messages)\/?$/, '').replace(/\/+$/, '')
  return `${url.origin}${path}${url.search}`
}

/**
 * The facts' context tiers, for a model whose base prices are the facts' (or not given): tiers at list prices
 * would be wrong beside a negotiated base price, so a model priced by hand keeps flat prices.
 */
function factTiers(cost: z.infer<typeof ModelInputSchema>['cost'], known: ModelInfo | undefined): ModelCostTier[] | undefined {
  if (!known?.cost.tiers) return undefined
  const same = (typed: number | undefined, listed: number) => typed === undefined || typed === listed
  return same(cost?.input, known.cost.input) && same(cost?.output, known.cost.output) ? known.cost.tiers : undefined
}

function completeModels(type: ProviderConfig['type'], baseURL: string | undefined, inputs: z.infer<typeof ModelInputSchema>[]): ModelInfo[] {
  const seen = new Set<string>()
  const missing: string[] = []
  const models: ModelInfo[] = []
  for (const input of inputs) {
    if (seen.has(input.id)) throw new InputError('models', `The model “${input.id}” is listed twice.`)
    seen.add(input.id)
    const known = lookupModel(type, input.id, { baseURL })
    const context = input.limit?.context ?? known?.limit.context
    const output = input.limit?.output ?? known?.limit.output
    if (context === undefined || output === undefined) {
      missing.push(input.id)
      continue
    }
    if (output > context) {
      throw new InputError('models', `The output limit of “${input.id}” (${output}) is larger than its context (${context}).`)
    }
    const cacheRead = input.cost?.cacheRead ?? known?.cost.cacheRead
    const cacheWrite = input.cost?.cacheWrite ?? known?.cost.cacheWrite
    const tiers = input.cost?.tiers ?? factTiers(input.cost, known)
    const tools = input.tools ?? known?.tools
    const reasoning = input.reasoning ?? known?.reasoning
    models.push({
      id: input.id,
      ...(input.name ? { name: input.name } : {}),
      limit: { context, output },
      cost: {
        input: input.cost?.input ?? known?.cost.input ?? 0,
        output: input.cost?.output ?? known?.cost.output ?? 0,
        ...(cacheRead !== undefined ? { cacheRead } : {}),
        ...(cacheWrite !== undefined ? { cacheWrite } : {}),
        ...(tiers?.length ? { tiers } : {}),
      },
      ...(tools !== undefined ? { tools } : {}),
      ...(reasoning !== undefined ? { reasoning } : {}),
    })
  }
  if (missing.length) {
    const list = missing.map((id) => `“${id}”`).join(', ')
    throw new InputError(
      'models',
      `${list} ${missing.length === 1 ? 'is' : 'are'} not in the built-in model table: enter ${missing.length === 1 ? 'its' : 'their'} context and output limits (in tokens).`,
    )
  }
  return models
}
