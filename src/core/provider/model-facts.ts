// Zod-free on purpose: the settings UI (lazy chunk) and the worker both read these shapes; the schemas that check
// them live in model-facts-schema.ts, on the worker's side.

/**
 * The providers whose models the facts cover: models.dev's ids for the presets tabcode offers (presets.ts). The
 * snapshot (scripts/models-snapshot.mjs) and an update keep these and nothing else of models.dev's file.
 */
export const FACT_PROVIDERS = ['openai', 'anthropic', 'google', 'groq', 'openrouter'] as const
export type FactProvider = (typeof FACT_PROVIDERS)[number]

/** US dollars per million tokens. */
export interface FactPrice {
  input: number
  output: number
  cacheRead?: number
  cacheWrite?: number
}

/** A price that applies once the request's context is above `above` tokens (models.dev's context tiers). */
export interface FactTier extends FactPrice {
  above: number
}

/** What models.dev says about one model: the facts tabcode reads, never where or how to reach it. */
export interface ModelFact {
  id: string
  name: string
  limit: { context: number; output: number; input?: number }
  /** Absent when models.dev gives no price. `tiers`: higher prices over a context size (issue 34 prices them). */
  cost?: FactPrice & { tiers?: FactTier[] }
  /** What the model takes in and gives out: text, image, pdf, audio, video. */
  modalities: { input: string[]; output: string[] }
  reasoning: boolean
  tools: boolean
  /** YYYY-MM or YYYY-MM-DD. */
  released?: string
  knowledge?: string
}

/** The facts in use: the snapshot built into the app, or the file the user last fetched ("Update model facts"). */
export interface ModelFacts {
  type: 'model-facts'
  /** The snapshot's date, or the day the user fetched the update (YYYY-MM-DD). */
  date: string
  /** `built-in`, or the address the update came from. */
  source: string
  providers: Record<FactProvider, ModelFact[]>
}

export function factCount(facts: ModelFacts): number {
  return FACT_PROVIDERS.reduce((sum, provider) => sum + facts.providers[provider].length, 0)
}

/** The default address of "Update model facts": the file opencode reads too. */
export const MODEL_FACTS_URL = 'https://models.dev/api.json'
