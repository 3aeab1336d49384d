import { ModelFactsError } from '../core/provider/errors'
import type { ModelFacts } from '../core/provider/model-facts'
import { factsFromText, MAX_MODEL_FACTS_BYTES } from '../core/provider/model-facts-schema'

export interface FactsFetchOptions {
  fetch: typeof fetch
  /** Today, as YYYY-MM-DD: the facts' date is the day they were fetched (the file carries none). */
  today: string
  timeoutMs?: number
}

/** Checks the address the user typed: http(s), no credentials in it. */
export function factsAddress(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new ModelFactsError(`“${raw.trim().slice(0, 200)}” is not an address.`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ModelFactsError('the address must start with https:// (or http:// for a mirror).')
  if (url.username || url.password) throw new ModelFactsError('the address must not carry a user name or password.')
  return url
}

/**
 * Fetches models.dev's api.json (or a mirror of it) the moment the user asks, and reads the facts in it. The request
 * carries no cookie, key or referrer, and nothing in the answer is used but the facts (model-facts-schema.ts).
 */
export async function fetchModelFacts(raw: string, options: FactsFetchOptions): Promise<ModelFacts> {
  const url = factsAddress(raw)
  let response: Response
  try {
    response = await options.fetch(url.href, {
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    })
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'took too long' : 'could not be reached (offline, or it refuses this page)'
    throw new ModelFactsError(`${url.host} ${reason}.`)
  }
  if (!response.ok) throw new ModelFactsError(`${url.host} answered ${response.status}.`)
  const declared = Number(response.headers.get('content-length'))
  if (declared > MAX_MODEL_FACTS_BYTES) throw new ModelFactsError(`the file is larger than ${MAX_MODEL_FACTS_BYTES / 1024 / 1024} MB.`)
  const text = await readCapped(response)
  return factsFromText(text, { date: options.today, source: url.href })
}

/** The body as text, stopping once it passes the cap (a server may send more than it declared, or declare nothing). */
async function readCapped(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_MODEL_FACTS_BYTES) {
      await reader.cancel()
      throw new ModelFactsError(`the file is larger than ${MAX_MODEL_FACTS_BYTES / 1024 / 1024} MB.`)
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}
