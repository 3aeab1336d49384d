import { z } from 'zod'
import { idSchema, timestamp } from '../schema/common'

export const PROVIDER_TYPES = ['openai', 'anthropic', 'google', 'openai-compatible'] as const
export const ProviderTypeSchema = z.enum(PROVIDER_TYPES)
export type ProviderType = z.infer<typeof ProviderTypeSchema>

const price = z.number().nonnegative()

/** A context tier: its prices replace the base ones for a request whose input is above `above` tokens. */
export const ModelCostTierSchema = z.object({
  above: z.number().int().nonnegative(),
  input: price,
  output: price,
  cacheRead: price.optional(),
  cacheWrite: price.optional(),
})
export type ModelCostTier = z.infer<typeof ModelCostTierSchema>

/** At most as many tiers as the model facts keep (model-facts-schema.ts). */
export const MAX_COST_TIERS = 20

/**
 * Prices are US dollars per million tokens, as providers publish them. `tiers` (from the model facts; absent in
 * models saved before issue 34, which then keep their flat prices) price longer requests (core/usage.ts).
 */
export const ModelCostSchema = z.object({
  input: price,
  output: price,
  cacheRead: price.optional(),
  cacheWrite: price.optional(),
  tiers: z.array(ModelCostTierSchema).max(MAX_COST_TIERS).optional(),
})
export type ModelCost = z.infer<typeof ModelCostSchema>

export const ModelLimitSchema = z.object({
  context: z.number().int().positive(),
  output: z.number().int().positive(),
})
export type ModelLimit = z.infer<typeof ModelLimitSchema>

export const ModelInfoSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  limit: ModelLimitSchema,
  cost: ModelCostSchema,
  /** Whether the model accepts tool definitions; a model without them still chats. */
  tools: z.boolean().optional(),
  reasoning: z.boolean().optional(),
})
export type ModelInfo = z.infer<typeof ModelInfoSchema>

/**
 * A configured provider. The key stays in IndexedDB and goes only into requests to `baseURL` (or the provider's
 * own host); it is never exported, logged or put in an error message.
 */
export const ProviderConfigSchema = z.object({
  id: idSchema('provider'),
  type: ProviderTypeSchema,
  name: z.string().min(1),
  baseURL: z.string().url().optional(),
  apiKey: z.string().optional(),
  /** The models the user chose to use from this provider, with their limits and prices. */
  models: z.array(ModelInfoSchema),
  time: z.object({ created: timestamp, updated: timestamp }),
})
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>

export const ModelChoiceSchema = z.object({ providerID: z.string().min(1), modelID: z.string().min(1) })
export type ModelChoice = z.infer<typeof ModelChoiceSchema>
