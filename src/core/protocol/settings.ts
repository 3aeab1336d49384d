import type { ModelFacts } from '../provider/model-facts'
import type { ModelInfo, ProviderConfig, ProviderType } from '../provider/schema'
import type { Settings } from '../settings'
import type { Setting } from '../schema'

export type { Settings }

/** A provider as the UI sees it: never the key itself, only whether one is stored. */
export type ProviderSummary = Omit<ProviderConfig, 'apiKey'> & { hasKey: boolean }

export interface ProviderInput {
  /** Absent for a new provider. */
  id?: string
  type: ProviderType
  name: string
  baseURL?: string
  /** A new key replaces the stored one; `null` removes it; absent keeps it. */
  apiKey?: string | null
  models: ModelInfo[]
}

/** What "Test connection" found, with the real cause when it failed. */
export type ConnectionResult =
  /** `listed`: the same models with what tabcode knows of each (the table's, or what the server itself reported). */
  | { status: 'ok'; models: string[]; listed: RemoteModel[]; latencyMs: number }
  | {
      status: 'failed'
      cause: 'cors' | 'auth' | 'unreachable' | 'unknown-model' | 'http' | 'invalid-response'
      message: string
      statusCode?: number
    }

/** A model the provider's API lists, with what tabcode knows about it (limits and prices from the model facts). */
export interface RemoteModel {
  id: string
  name?: string
  known?: ModelInfo
}

/** The model facts in use (the snapshot built in, or the update the user fetched) and where an update comes from. */
export interface ModelFactsView {
  facts: ModelFacts
  /** The address "Update model facts" fetches. */
  url: string
}

/** Providers and models (keys go in, never out), and the stored settings. */
export interface SettingsApi {
  listProviders(): ProviderSummary[]
  saveProvider(input: ProviderInput): ProviderSummary
  removeProvider(providerID: string): void
  listRemoteModels(providerID: string): RemoteModel[]
  /** Tests a provider as entered (before saving it) or a stored one; optionally checks that a model exists. */
  testConnection(input: ProviderInput, modelID?: string): ConnectionResult
  getSettings(): Settings
  setSetting(setting: Setting): Settings
  modelFacts(): ModelFactsView
  /**
   * Fetches the facts at `url` (models.dev's api.json or a mirror) now, checks them and uses them from now on; a file
   * that fails the check is refused with a ModelFactsError and the facts in use stay. Never called but by the user.
   */
  updateModelFacts(url: string): ModelFactsView
}
