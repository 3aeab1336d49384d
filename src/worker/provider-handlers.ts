import { z } from 'zod'
import { opaqueProbeFor, listRemoteModels, testConnection, type ConnectionOptions, type ConnectionTarget } from '../provider/connection'
import {
  getProvider,
  getSettings,
  listProviders,
  removeProvider,
  saveProvider,
  setSetting,
} from '../store/provider-store'
import { loadModelFacts, modelFactsURL, saveModelFacts, saveModelFactsURL } from '../store/model-facts-store'
import { factsAddress, fetchModelFacts } from '../provider/model-facts-fetch'
import { ProviderTypeSchema } from '../core/provider/schema'
import type { StoreContext } from '../store/context'
import { parseWith } from '../core/errors'
import type { Handlers } from '../core/protocol/base'
import type { ProviderInput, SettingsApi } from '../core/protocol/settings'

export interface ProviderHandlerOptions {
  /** The network, replaceable in tests. */
  fetch?: typeof fetch
  /** This page's origin for CORS advice; the worker's own location by default. */
  origin?: string
  /** Whether a failed no-cors retry proves a host unreachable; detected from this context's COEP by default. */
  opaqueProbe?: () => Promise<'conclusive' | 'inconclusive'>
  /** Today as YYYY-MM-DD (the date of fetched model facts); the clock's by default. */
  today?: () => string
}

const TestInputSchema = z.object({
  id: z.string().optional(),
  type: ProviderTypeSchema,
  name: z.string().optional(),
  baseURL: z.string().optional(),
  apiKey: z.string().nullable().optional(),
})

/** Provider and settings operations. Keys go in (save, test) and never come out. */
export function providerHandlers(ready: () => StoreContext, options: ProviderHandlerOptions = {}): Handlers<SettingsApi> {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const opaqueProbe = options.opaqueProbe ?? memoize(() => detectOpaqueProbe(fetchImpl))
  const connection = async (): Promise<ConnectionOptions> => ({
    fetch: fetchImpl,
    origin: options.origin ?? globalThis.location?.origin,
    opaqueProbe: await opaqueProbe(),
  })

  /** The form's values, with the stored key when the form left the key alone (`apiKey` absent). */
  async function targetOf(input: ProviderInput): Promise<ConnectionTarget> {
    const values = parseWith(TestInputSchema, input, 'provider')
    let apiKey = values.apiKey ?? undefined
    if (values.apiKey === undefined && values.id) apiKey = (await getProvider(ready(), values.id)).apiKey
    return {
      type: values.type,
      ...(values.name ? { name: values.name } : {}),
      ...(values.baseURL?.trim() ? { baseURL: values.baseURL.trim() } : {}),
      ...(apiKey?.trim() ? { apiKey: apiKey.trim().replace(/^Bearer\s+/i, '') } : {}),
    }
  }

  return {
    listProviders: () => listProviders(ready()),
    saveProvider: (input: ProviderInput) => saveProvider(ready(), input),
    removeProvider: (providerID: string) => removeProvider(ready(), providerID),
    listRemoteModels: async (providerID: string) => {
      await loadModelFacts(ready())
      return listRemoteModels(await getProvider(ready(), providerID), await connection())
    },
    testConnection: async (input: ProviderInput, modelID?: string) => {
      await loadModelFacts(ready())
      return testConnection(await targetOf(input), modelID, await connection())
    },
    getSettings: () => getSettings(ready()),
    setSetting: (setting: Parameters<SettingsApi['setSetting']>[0]) => setSetting(ready(), setting),
    modelFacts: async () => ({ facts: await loadModelFacts(ready()), url: await modelFactsURL(ready()) }),
    updateModelFacts: async (url: string) => {
      const address = factsAddress(parseWith(z.string().max(2_000), url, 'address')).href
      // The address is kept even when the file is refused, so a mirror need not be typed again.
      await saveModelFactsURL(ready(), address)
      const today = options.today?.() ?? new Date(ready().now()).toISOString().slice(0, 10)
      const facts = await fetchModelFacts(address, { fetch: fetchImpl, today })
      return { facts: await saveModelFacts(ready(), facts), url: address }
    },
  }
}

/**
 * Under COEP `require-corp` the browser hides even opaque answers from servers without a CORP header, so the
 * no-cors retry can't tell "CORS refused" from "nothing there". The worker reads its own response's COEP header
 * (same-origin, served from the HTTP or service-worker cache) to know which case it is in.
 */
export async function detectOpaqueProbe(fetchImpl: typeof fetch): Promise<'conclusive' | 'inconclusive'> {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true
  if (!isolated) return 'conclusive'
  const href = globalThis.location?.href
  if (!href) return 'inconclusive'
  try {
    const response = await fetchImpl(href, { method: 'HEAD', cache: 'force-cache' })
    return opaqueProbeFor(true, response.headers.get('cross-origin-embedder-policy'))
  } catch {
    return 'inconclusive'
  }
}

function memoize<T>(run: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined
  return () => (value ??= run())
}
