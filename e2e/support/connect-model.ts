import type { Page } from '@playwright/test'
import { MOCK_MODEL_SERVER_URL } from './model-script'

/** US dollars per million tokens; without cache prices, cached tokens cost the input price. */
export interface MockPrices {
  input: number
  output: number
  cacheRead?: number
  cacheWrite?: number
}

export const MOCK_KEY = 'sk-mock-e2e-9f3a'

/**
 * Configures the scripted server as an OpenAI-compatible provider through the worker's RPC (the same call the
 * Settings dialog makes) and makes its models the default and the small model. Returns the provider id.
 */
export async function connectMockModel(page: Page, options: { prices?: MockPrices; key?: string } = {}): Promise<string> {
  const prices = options.prices ?? { input: 2, output: 8 }
  const providerID = await page.evaluate(
    async ({ baseURL, key, prices }) => {
      const api = window.__tabcode!.api
      const provider = await api.saveProvider({
        type: 'openai-compatible',
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
    { baseURL: `${MOCK_MODEL_SERVER_URL}/v1`, key: options.key ?? MOCK_KEY, prices },
  )
  return providerID
}
