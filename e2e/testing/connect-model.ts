import type { Page } from '@playwright/test'
import { MOCK_MODEL_SERVER_URL, type WireFormat } from './model-script'

/** US dollars per million tokens; without cache prices, cached tokens cost the input price. */
export interface MockPrices {
  input: number
  output: number
  cacheRead?: number
  cacheWrite?: number
}

export const MOCK_KEY = 'sk-mock-e2e-9f3a'

/** A provider type the app offers; the mock server answers each in its own wire format. */
export type MockProviderType = 'openai-compatible' | 'openai' | 'anthropic' | 'google'

/** How each provider type reaches the mock server: its base URL there and the wire format it speaks. */
export const MOCK_PROVIDERS: Record<MockProviderType, { baseURL: string; format: WireFormat }> = {
  'openai-compatible': { baseURL: `${MOCK_MODEL_SERVER_URL}/v1`, format: 'chat' },
  openai: { baseURL: `${MOCK_MODEL_SERVER_URL}/v1`, format: 'responses' },
  anthropic: { baseURL: `${MOCK_MODEL_SERVER_URL}/v1`, format: 'messages' },
  google: { baseURL: `${MOCK_MODEL_SERVER_URL}/v1beta`, format: 'gemini' },
}

/**
 * Configures the scripted server as a provider of `type` (default OpenAI-compatible) through the worker's RPC (the
 * same call the Settings dialog makes, base URL included) and makes its models the default and the small model.
 * Returns the provider id.
 */
export async function connectMockModel(
  page: Page,
  options: { prices?: MockPrices; key?: string; type?: MockProviderType } = {},
): Promise<string> {
  const prices = options.prices ?? { input: 2, output: 8 }
  const type = options.type ?? 'openai-compatible'
  const providerID = await page.evaluate(
    async ({ type, baseURL, key, prices }) => {
      const api = window.__tabcode!.api
      const provider = await api.saveProvider({
        type,
        name: 'Mock server',
        baseURL,
        apiKey: key,
        models: [
          { id: 'mock-model', limit: { context: 100_000, output: 4_096 }, cost: prices },
          { id: 'mock-small', limit: { context: 16_000, output: 1_024 }, cost: { input: 0, output: 0 } },
        ],
      })
      await api.setSetting({ key: 'model.default', value: { providerID: provider.id, modelID: 'mock-model' } })
      await api.setSetting({ key: 'model.small', value: { providerID: provider.id, modelID: 'mock-small' } })
      return provider.id
    },
    { type, baseURL: MOCK_PROVIDERS[type].baseURL, key: options.key ?? MOCK_KEY, prices },
  )
  return providerID
}
