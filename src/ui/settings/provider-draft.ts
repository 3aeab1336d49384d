// Pure form logic for the provider editor. Runtime imports stay zod-free (the catalog and presets are plain tables).
import { matchModel } from '../../core/provider/catalog'
import { ENDPOINT_PRESETS, presetForURL, providerTypeInfo, type EndpointPresetID } from '../../core/provider/presets'
import type { ModelCostTier, ModelInfo, ProviderType } from '../../core/provider/schema'
import type { ProviderInput, ProviderSummary, RemoteModel } from '../../core/protocol'
import { formatPricePerMillion, formatTokenCount } from '../kit/format/usage'

/** Where a model row's numbers came from, so the form can say how far to trust them. */
export type ModelSource = 'configured' | 'catalog' | 'open-model' | 'server' | 'unknown'

/** One model row as typed: numbers stay strings until saving, so half-typed values don't jump around. */
export interface ModelDraft {
  id: string
  name?: string
  context: string
  output: string
  inputPrice: string
  outputPrice: string
  cacheReadPrice: string
  cacheWritePrice: string
  tools?: boolean
  reasoning?: boolean
  source: ModelSource
  /** The context tiers the row came with and the base prices they go with: an edited base price drops them. */
  tiers?: { input: number; output: number; list: ModelCostTier[] }
}

export interface ProviderDraft {
  id?: string
  type: ProviderType
  name: string
  baseURL: string
  /** A newly typed key; empty keeps the stored one. */
  apiKey: string
  /** "Remove key" was pressed: the stored key is deleted on save. */
  removeKey: boolean
  /** Whether a key is stored (never the key itself). */
  hasKey: boolean
  models: ModelDraft[]
}

export function newDraft(type: ProviderType = 'openai'): ProviderDraft {
  return { type, name: providerTypeInfo(type).label, baseURL: '', apiKey: '', removeKey: false, hasKey: false, models: [] }
}

export function draftFromSummary(summary: ProviderSummary): ProviderDraft {
  return {
    id: summary.id,
    type: summary.type,
    name: summary.name,
    baseURL: summary.baseURL ?? '',
    apiKey: '',
    removeKey: false,
    hasKey: summary.hasKey,
    models: summary.models.map((model) => modelDraftFromInfo(model, 'configured')),
  }
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value))

function modelDraftFromInfo(info: ModelInfo, source: ModelSource): ModelDraft {
  return {
    id: info.id,
    ...(info.name ? { name: info.name } : {}),
    context: text(info.limit.context),
    output: text(info.limit.output),
    inputPrice: text(info.cost.input),
    outputPrice: text(info.cost.output),
    cacheReadPrice: text(info.cost.cacheRead),
    cacheWritePrice: text(info.cost.cacheWrite),
    ...(info.tools !== undefined ? { tools: info.tools } : {}),
    ...(info.reasoning !== undefined ? { reasoning: info.reasoning } : {}),
    source,
    ...(info.cost.tiers?.length ? { tiers: { input: info.cost.input, output: info.cost.output, list: info.cost.tiers } } : {}),
  }
}

/** A new row, prefilled from what the server said, else the model facts; empty (and flagged) when neither knows. */
export function modelDraftFor(type: ProviderType, id: string, remote?: RemoteModel, baseURL?: string): ModelDraft {
  const match = matchModel(type, id, { baseURL: baseURL?.trim() || undefined })
  if (match && match.source !== 'pattern') return modelDraftFromInfo(match.info, 'catalog')
  // The worker joins the server's own numbers (OpenRouter prices, vLLM's context) with the open-model table;
  // numbers equal to the table's are the table's.
  const fromServer =
    remote?.known &&
    (!match ||
      remote.known.limit.context !== match.info.limit.context ||
      remote.known.limit.output !== match.info.limit.output ||
      remote.known.cost.input !== match.info.cost.input ||
      remote.known.cost.output !== match.info.cost.output)
  if (remote?.known && fromServer) return modelDraftFromInfo({ ...remote.known, id }, 'server')
  if (match) return modelDraftFromInfo(match.info, 'open-model')
  return {
    id,
    context: '',
    output: '',
    inputPrice: '0',
    outputPrice: '0',
    cacheReadPrice: '',
    cacheWritePrice: '',
    source: 'unknown',
  }
}

export function sourceNote(model: ModelDraft): string {
  switch (model.source) {
    case 'configured':
      return ''
    case 'catalog':
      return 'Limits and prices from the model facts (models.dev).'
    case 'open-model':
      return 'Limits from the open-model table; price 0 (set prices if your host charges).'
    case 'server':
      return 'Limits from the server; check them.'
    case 'unknown':
      return 'Not in the model facts: enter its context and output limits.'
  }
}

/** The context tiers a row will be saved with: its own, while its base input and output prices are as they came. */
function keptTiers(model: ModelDraft): ModelCostTier[] | undefined {
  const { tiers } = model
  return tiers && parsePrice(model.inputPrice) === tiers.input && parsePrice(model.outputPrice) === tiers.output ? tiers.list : undefined
}

/** "Over 200k tokens: $2.5 / $15 per M", one sentence per context tier, for the model card; empty without tiers. */
export function tierNote(model: ModelDraft): string {
  return (keptTiers(model) ?? [])
    .map((tier) => `Over ${formatTokenCount(tier.above)} tokens: ${formatPricePerMillion(tier) ?? '$0 / $0 per M'}.`)
    .join(' ')
}

/** The values "Test connection" and "Load models" send: the stored key is used unless a new one is typed or removed. */
export function connectionInput(draft: ProviderDraft): ProviderInput {
  return {
    ...(draft.id ? { id: draft.id } : {}),
    type: draft.type,
    name: draft.name.trim() || providerTypeInfo(draft.type).label,
    ...(draft.baseURL.trim() ? { baseURL: draft.baseURL.trim() } : {}),
    ...keyField(draft),
    models: [],
  }
}

function keyField(draft: ProviderDraft): Pick<ProviderInput, 'apiKey'> {
  if (draft.apiKey.trim()) return { apiKey: draft.apiKey.trim() }
  if (draft.removeKey) return { apiKey: null }
  return {}
}

/** Whether "Load models" can ask the worker about the stored provider (same endpoint and key as saved). */
export function sameConnection(draft: ProviderDraft, saved: ProviderSummary | undefined): boolean {
  return (
    !!saved &&
    draft.id === saved.id &&
    draft.type === saved.type &&
    draft.baseURL.trim().replace(/\/+$/, '') === (saved.baseURL ?? '') &&
    !draft.apiKey.trim() &&
    !draft.removeKey
  )
}

export type DraftCheck = { ok: true; input: ProviderInput } | { ok: false; problems: string[] }

/** Checks what the worker would refuse, worded for the form, and builds the input to save. */
export function checkDraft(draft: ProviderDraft): DraftCheck {
  const problems: string[] = []
  const info = providerTypeInfo(draft.type)
  if (!draft.name.trim()) problems.push('Give the provider a name.')
  const baseURL = draft.baseURL.trim()
  if (!baseURL && draft.type === 'openai-compatible') {
    problems.push('Enter the base URL of the server, for example http://localhost:11434/v1 for Ollama.')
  } else if (baseURL && !/^https?:\/\/[^\s/]+/i.test(baseURL)) {
    problems.push('The base URL must start with http:// or https://.')
  }
  const keyAfterSave = draft.apiKey.trim() ? true : draft.removeKey ? false : draft.hasKey
  if (info.needsKey && !keyAfterSave) problems.push(`${info.label} needs an API key.`)
  const missing: string[] = []
  const models: ModelInfo[] = []
  for (const model of draft.models) {
    const context = parseCount(model.context)
    const output = parseCount(model.output)
    if (context === undefined || output === undefined) {
      if (model.context.trim() && context === undefined) problems.push(`The context limit of “${model.id}” must be a whole number of tokens.`)
      else if (model.output.trim() && output === undefined) problems.push(`The output limit of “${model.id}” must be a whole number of tokens.`)
      else missing.push(model.id)
      continue
    }
    if (output > context) problems.push(`The output limit of “${model.id}” is larger than its context limit.`)
    const prices = {
      input: parsePrice(model.inputPrice),
      output: parsePrice(model.outputPrice),
      cacheRead: parsePrice(model.cacheReadPrice),
      cacheWrite: parsePrice(model.cacheWritePrice),
    }
    for (const [field, value] of Object.entries(prices)) {
      if (value === null) problems.push(`The ${priceLabel(field)} of “${model.id}” must be a number of dollars, 0 or more.`)
    }
    const tiers = keptTiers(model)
    models.push({
      id: model.id,
      ...(model.name ? { name: model.name } : {}),
      limit: { context, output },
      cost: {
        input: prices.input ?? 0,
        output: prices.output ?? 0,
        ...(typeof prices.cacheRead === 'number' ? { cacheRead: prices.cacheRead } : {}),
        ...(typeof prices.cacheWrite === 'number' ? { cacheWrite: prices.cacheWrite } : {}),
        ...(tiers ? { tiers } : {}),
      },
      ...(model.tools !== undefined ? { tools: model.tools } : {}),
      ...(model.reasoning !== undefined ? { reasoning: model.reasoning } : {}),
    })
  }
  if (missing.length) {
    const list = missing.map((id) => `“${id}”`).join(', ')
    problems.push(
      `${list} ${missing.length === 1 ? 'is' : 'are'} not in the built-in model table: enter ${missing.length === 1 ? 'its' : 'their'} context and output limits before saving.`,
    )
  }
  if (problems.length) return { ok: false, problems }
  return {
    ok: true,
    input: {
      ...(draft.id ? { id: draft.id } : {}),
      type: draft.type,
      name: draft.name.trim(),
      ...(baseURL ? { baseURL } : {}),
      ...keyField(draft),
      models,
    },
  }
}

function priceLabel(field: string): string {
  return { input: 'input price', output: 'output price', cacheRead: 'cache read price', cacheWrite: 'cache write price' }[field] ?? field
}

/** A whole positive token count; accepts `128000`, `128,000`, `128_000` and `128k`. */
export function parseCount(value: string): number | undefined {
  const clean = value.trim().replace(/[,_\s]/g, '').toLowerCase()
  const match = /^(\d+(?:\.\d+)?)(k|m)?$/.exec(clean)
  if (!match) return undefined
  const number = Number(match[1]) * (match[2] === 'k' ? 1_000 : match[2] === 'm' ? 1_000_000 : 1)
  return Number.isInteger(number) && number > 0 ? number : undefined
}

/** Dollars per million tokens: undefined when empty, null when not a non-negative number. */
export function parsePrice(value: string): number | undefined | null {
  const clean = value.trim().replace(/^\$/, '')
  if (!clean) return undefined
  const number = Number(clean)
  return Number.isFinite(number) && number >= 0 ? number : null
}

/** The preset a draft's base URL matches, for the preset select. */
export function presetOf(draft: ProviderDraft): EndpointPresetID | '' {
  if (draft.type !== 'openai-compatible') return ''
  const preset = presetForURL(draft.baseURL.trim())
  return preset && preset.baseURL === draft.baseURL.trim() ? preset.id : ''
}

/** Applies a preset: its URL, and its name unless the user already named the provider. */
export function applyPreset(draft: ProviderDraft, presetID: EndpointPresetID | ''): ProviderDraft {
  const preset = ENDPOINT_PRESETS.find((candidate) => candidate.id === presetID)
  if (!preset) return draft
  const defaultNames = new Set([...ENDPOINT_PRESETS.map((candidate) => candidate.label), providerTypeInfo(draft.type).label, ''])
  return { ...draft, baseURL: preset.baseURL, name: defaultNames.has(draft.name.trim()) ? preset.label : draft.name }
}

/** Switches the type; a name that was only the old type's label follows the new one. */
export function changeType(draft: ProviderDraft, type: ProviderType): ProviderDraft {
  const defaultNames = new Set([providerTypeInfo(draft.type).label, ...ENDPOINT_PRESETS.map((preset) => preset.label), ''])
  return {
    ...draft,
    type,
    name: defaultNames.has(draft.name.trim()) ? providerTypeInfo(type).label : draft.name,
    // A preset URL belongs to OpenAI-compatible servers; the hosted types have their own default.
    baseURL: presetForURL(draft.baseURL) && type !== 'openai-compatible' ? '' : draft.baseURL,
  }
}
