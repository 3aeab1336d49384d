/**
 * The context (and, where told, output) limits a local model server reports through its own API, for models the
 * model facts do not know. The OpenAI-compatible `/v1/models` of these servers lists ids only, so without this
 * a user had to type the limits of every local model by hand:
 * - LM Studio: `GET /api/v0/models` lists every model with `max_context_length` (and `loaded_context_length` for the
 *   one loaded, which is what it serves);
 * - llama.cpp's server: `GET /props` gives the context it was started with (`default_generation_settings.n_ctx`);
 * - Ollama: `POST /api/show {model}` gives the model's `num_ctx` parameter when its Modelfile sets one, else its
 *   architecture's `<arch>.context_length`.
 * Only servers on this machine or its network are asked (see fetchModelList). Each is asked without the provider's key (none of them needs one, and the key must not go where it was not meant
 * to), briefly, and any failure only means the user types the limits as before.
 */

export interface ReportedLimits {
  context: number
  output?: number
}

export interface LocalLimitsOptions {
  fetch: typeof globalThis.fetch
  /** Per request. */
  timeoutMs?: number
  signal?: AbortSignal
}

const TIMEOUT_MS = 2_500
/** Ollama answers one model per request; a server with more than this many unknown models gets the first ones. */
const OLLAMA_SHOWN = 24

/** The server's root: the base URL without its OpenAI-compatible `/v1`. Undefined when it does not end in one. */
export function serverRoot(baseURL: string): string | undefined {
  const trimmed = baseURL.trim().replace(/\/+$/, '')
  return /\/v1$/.test(trimmed) ? trimmed.slice(0, -3) : undefined
}

export async function localServerLimits(
  baseURL: string,
  ids: readonly string[],
  options: LocalLimitsOptions,
): Promise<Map<string, ReportedLimits>> {
  const root = serverRoot(baseURL)
  if (!root || ids.length === 0) return new Map()
  const ask = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    try {
      const response = await options.fetch(`${root}${path}`, { ...init, signal })
      if (!response.ok) return undefined
      return (await response.json()) as unknown
    } catch {
      return undefined
    }
  }
  const fromLmStudio = readLmStudio(await ask('/api/v0/models'), ids)
  if (fromLmStudio.size > 0) return fromLmStudio
  const fromLlamaCpp = readLlamaCpp(await ask('/props'), ids)
  if (fromLlamaCpp.size > 0) return fromLlamaCpp
  const found = new Map<string, ReportedLimits>()
  const shown = await Promise.all(
    ids.slice(0, OLLAMA_SHOWN).map(async (id) => {
      const body = await ask('/api/show', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: id }) })
      return [id, readOllama(body)] as const
    }),
  )
  for (const [id, limits] of shown) if (limits) found.set(id, limits)
  return found
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined

/** LM Studio: what a loaded model serves, else what the model can take. */
export function readLmStudio(body: unknown, ids: readonly string[]): Map<string, ReportedLimits> {
  const found = new Map<string, ReportedLimits>()
  const list = (body as { data?: unknown } | null)?.data
  if (!Array.isArray(list)) return found
  for (const entry of list as Record<string, unknown>[]) {
    const id = typeof entry?.id === 'string' ? entry.id : undefined
    if (!id || !ids.includes(id)) continue
    const context = positive(entry.loaded_context_length) ?? positive(entry.max_context_length)
    if (context) found.set(id, { context })
  }
  return found
}

/** llama.cpp serves one model: the context it was started with applies to the ids it lists. */
export function readLlamaCpp(body: unknown, ids: readonly string[]): Map<string, ReportedLimits> {
  const found = new Map<string, ReportedLimits>()
  const settings = (body as { default_generation_settings?: Record<string, unknown> } | null)?.default_generation_settings
  const context = positive(settings?.n_ctx)
  if (!context) return found
  const predict = positive((settings?.params as Record<string, unknown> | undefined)?.n_predict) ?? positive(settings?.n_predict)
  for (const id of ids) found.set(id, { context, ...(predict && predict < context ? { output: predict } : {}) })
  return found
}

/** Ollama: a `num_ctx` the Modelfile sets is what it serves; otherwise the architecture's trained context. */
export function readOllama(body: unknown): ReportedLimits | undefined {
  if (!body || typeof body !== 'object') return undefined
  const { parameters, model_info: info } = body as { parameters?: unknown; model_info?: Record<string, unknown> }
  const numCtx = typeof parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(parameters)?.[1] : undefined
  if (numCtx) return { context: Number(numCtx) }
  if (!info || typeof info !== 'object') return undefined
  for (const [key, value] of Object.entries(info)) {
    const context = key.endsWith('.context_length') ? positive(value) : undefined
    if (context) return { context }
  }
  return undefined
}
