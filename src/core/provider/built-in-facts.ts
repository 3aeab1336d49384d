import type { ModelFacts } from './model-facts'
import { factsFromApi } from './model-facts-schema'

/**
 * The snapshot of models.dev built into the app (scripts/models-snapshot.mjs writes models-snapshot.json), read
 * with the same parser as a fetched update. Imported on first use, so neither first screen carries it.
 */
export async function builtInFacts(): Promise<ModelFacts> {
  const { default: snapshot } = await import('./models-snapshot.json')
  return factsFromApi(snapshot.providers, { date: snapshot.date, source: 'built-in' })
}
