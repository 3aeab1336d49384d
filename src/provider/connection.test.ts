import { beforeAll, describe, expect, it } from 'vitest'
import { builtInFacts } from '../core/provider/built-in-facts'
import { useModelFacts } from '../core/provider/catalog'
import type { ConnectionResult } from '../core/protocol'
import {
  fetchModelList,
  listRemoteModels,
  opaqueProbeFor,
  redactSecrets,
  testConnection,
  type ConnectionOptions,
  type ConnectionTarget,
} from './connection'
import type { ProviderConfig } from '../core/provider/schema'

const KEY = 'sk-live-Zq8vS3cr3tK3y0123456789'
const ORIGIN = 'https://tabcode.example'

type Route = (url: URL, init: RequestInit) => Response | Promise<Response> | 'network-error' | 'hang'

interface Call {
  url: URL
  init: RequestInit
  headers: Headers
}

/** A scripted `fetch`: 'network-error' rejects like a browser does for CORS or a dead host. */
function fakeFetch(route: Route) {
  const calls: Call[] = []
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input))
    calls.push({ url, init, headers: new Headers(init.headers) })
    const answer = await route(url, init)
    if (answer === 'network-error') throw new TypeError('Failed to fetch')
    if (answer === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        if (init.signal?.aborted) reject(init.signal.reason)
        init.signal?.addEventListener('abort', () => reject(init.signal!.reason))
      })
    }
    return answer
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

const openaiTarget: ConnectionTarget = { type: 'openai', apiKey: KEY }
const ollamaTarget: ConnectionTarget = { type: 'openai-compatible', name: 'Ollama', baseURL: 'http://localhost:11434/v1' }

function options(fetch: typeof globalThis.fetch, extra: Partial<ConnectionOptions> = {}): ConnectionOptions {
  let clock = 1_000
  return { fetch, origin: ORIGIN, opaqueProbe: 'conclusive', now: () => (clock += 42), ...extra }
}

function failed(result: ConnectionResult) {
  if (result.status !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(result)}`)
  return result
}

// The worker loads the facts before it lists models (provider-handlers.ts); here they are handed in.
beforeAll(async () => useModelFacts(await builtInFacts()))

describe('listing models', () => {
  it('lists OpenAI chat models with a Bearer key and what the table knows about them', async () => {
    const { fetch, calls } = fakeFetch(() =>
      json({
        object: 'list',
        data: [
          { id: 'gpt-4o', object: 'model' },
          { id: 'text-embedding-3-small', object: 'model' },
          { id: 'whisper-1', object: 'model' },
          { id: 'gpt-4o-2024-08-06', object: 'model' },
          { id: 'ft:gpt-4o:acme', object: 'model' },
        ],
      }),
    )
    const listing = await fetchModelList(openaiTarget, options(fetch))
    expect(calls[0]!.url.href).toBe('https://api.openai.com/v1/models')
    expect(calls[0]!.headers.get('authorization')).toBe(`Bearer ${KEY}`)
    if (!listing.ok) throw new Error(listing.failure.message)
    expect(listing.latencyMs).toBe(42)
    expect(listing.models.map((model) => model.id)).toEqual(['ft:gpt-4o:acme', 'gpt-4o', 'gpt-4o-2024-08-06'])
    expect(listing.models.find((model) => model.id === 'gpt-4o-2024-08-06')?.known).toMatchObject({
      id: 'gpt-4o-2024-08-06',
      limit: { context: 128_000 },
      cost: { input: 2.5 },
    })
  })

  it('calls Anthropic with its key header, version and the browser-access header', async () => {
    const { fetch, calls } = fakeFetch(() =>
      json({ data: [{ id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5', type: 'model' }], has_more: false }),
    )
    const listing = await fetchModelList({ type: 'anthropic', apiKey: KEY }, options(fetch))
    expect(calls[0]!.url.origin + calls[0]!.url.pathname).toBe('https://api.anthropic.com/v1/models')
    expect(Object.fromEntries(calls[0]!.headers)).toEqual({
      'x-api-key': KEY,
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
    })
    expect(listing).toMatchObject({
      ok: true,
      models: [{ id: 'claude-sonnet-4-5-20250929', name: 'Claude Sonnet 4.5', known: { cost: { input: 3, output: 15 } } }],
    })
  })

  it('calls Gemini with the key in a header (never the URL) and keeps only text models', async () => {
    const { fetch, calls } = fakeFetch(() =>
      json({
        models: [
          {
            name: 'models/gemini-2.5-flash',
            displayName: 'Gemini 2.5 Flash',
            inputTokenLimit: 1_048_576,
            outputTokenLimit: 65_536,
            supportedGenerationMethods: ['generateContent', 'countTokens'],
          },
          { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
          {
            name: 'models/gemma-3-27b-it',
            inputTokenLimit: 131_072,
            outputTokenLimit: 8_192,
            supportedGenerationMethods: ['generateContent'],
          },
        ],
      }),
    )
    const listing = await fetchModelList({ type: 'google', apiKey: KEY }, options(fetch))
    expect(calls[0]!.url.href).toBe('https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000')
    expect(calls[0]!.url.href).not.toContain(KEY)
    expect(calls[0]!.headers.get('x-goog-api-key')).toBe(KEY)
    if (!listing.ok) throw new Error(listing.failure.message)
    expect(listing.models.map((model) => model.id)).toEqual(['gemini-2.5-flash', 'gemma-3-27b-it'])
    expect(listing.models[0]?.known?.cost.input).toBe(0.3)
    expect(listing.models[1]?.known).toMatchObject({ limit: { context: 131_072, output: 8_192 }, cost: { input: 0, output: 0 } })
  })

  it('sends no Authorization header to a keyless local server (so the GET needs no preflight)', async () => {
    const { fetch, calls } = fakeFetch(() => json({ object: 'list', data: [{ id: 'llama3.2:latest' }, { id: 'qwen2.5-coder:7b' }] }))
    const listing = await fetchModelList(ollamaTarget, options(fetch))
    expect(calls[0]!.url.href).toBe('http://localhost:11434/v1/models')
    expect([...calls[0]!.headers.keys()]).toEqual([])
    expect(listing).toMatchObject({ ok: true, models: [{ id: 'llama3.2:latest', known: { limit: { context: 131_072 } } }, { id: 'qwen2.5-coder:7b' }] })
  })

  it('fills in the limits a local server reports through its own API for models the table lacks (LM Studio)', async () => {
    const { fetch, calls } = fakeFetch((url) =>
      url.pathname === '/v1/models'
        ? json({ object: 'list', data: [{ id: 'acme-coder-local' }, { id: 'qwen2.5-coder:7b' }] })
        : url.pathname === '/api/v0/models'
          ? json({ data: [{ id: 'acme-coder-local', max_context_length: 40_960 }] })
          : new Response('', { status: 404 }),
    )
    const listing = await fetchModelList({ type: 'openai-compatible', name: 'LM Studio', baseURL: 'http://localhost:1234/v1' }, options(fetch))
    if (!listing.ok) throw new Error(listing.failure.message)
    expect(listing.models.find((model) => model.id === 'acme-coder-local')?.known?.limit).toEqual({ context: 40_960, output: 8_192 })
    expect(calls.map((call) => call.url.pathname)).toEqual(['/v1/models', '/api/v0/models'])
  })

  it('takes limits and prices a server reports (OpenRouter, vLLM) for models the table lacks', async () => {
    const { fetch } = fakeFetch(() =>
      json({
        data: [
          {
            id: 'acme/coder-9000',
            name: 'Acme: Coder 9000',
            context_length: 64_000,
            pricing: { prompt: '0.0000005', completion: '0.0000015', input_cache_read: '0.00000005' },
            top_provider: { max_completion_tokens: 16_000 },
          },
          { id: 'Qwen/Qwen2.5-Coder-32B-Instruct', max_model_len: 16_384 },
          { id: 'mystery' },
        ],
      }),
    )
    const listing = await fetchModelList({ type: 'openai-compatible', baseURL: 'https://openrouter.ai/api/v1', apiKey: KEY }, options(fetch))
    if (!listing.ok) throw new Error(listing.failure.message)
    const byID = Object.fromEntries(listing.models.map((model) => [model.id, model]))
    expect(byID['acme/coder-9000']).toMatchObject({
      name: 'Acme: Coder 9000',
      known: { limit: { context: 64_000, output: 16_000 }, cost: { input: 0.5, output: 1.5, cacheRead: 0.05 } },
    })
    expect(byID['Qwen/Qwen2.5-Coder-32B-Instruct']?.known?.limit).toEqual({ context: 16_384, output: 8_192 })
    expect(byID.mystery?.known).toBeUndefined()
  })

  it('throws a named ConnectionError from listRemoteModels', async () => {
    const { fetch } = fakeFetch(() => json({ error: { message: 'Incorrect API key provided' } }, 401))
    const config: ProviderConfig = {
      id: 'prv_1',
      type: 'openai',
      name: 'OpenAI',
      apiKey: KEY,
      models: [],
      time: { created: 0, updated: 0 },
    }
    await expect(listRemoteModels(config, options(fetch))).rejects.toMatchObject({
      name: 'ConnectionError',
      data: { cause: 'auth', statusCode: 401 },
    })
  })
})

describe('testConnection', () => {
  it('reports the listed models and the latency', async () => {
    const { fetch } = fakeFetch(() => json({ data: [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }] }))
    expect(await testConnection(openaiTarget, 'gpt-4o', options(fetch))).toMatchObject({
      status: 'ok',
      models: ['gpt-4o', 'gpt-4o-mini'],
      listed: [{ id: 'gpt-4o', known: { limit: { context: 128_000 } } }, { id: 'gpt-4o-mini' }],
      latencyMs: 42,
    })
  })

  it('tells CORS refusal apart from a dead host with a no-cors retry, and says how to fix it', async () => {
    const { fetch, calls } = fakeFetch((_url, init) => (init.mode === 'no-cors' ? new Response(null, { status: 200 }) : 'network-error'))
    const result = failed(await testConnection(ollamaTarget, undefined, options(fetch)))
    expect(result.cause).toBe('cors')
    expect(result.message).toContain('localhost:11434 is running but refused requests from this page (CORS)')
    expect(result.message).toContain(`OLLAMA_ORIGINS=${ORIGIN}`)
    // The retry carries no headers at all, so no key and no preflight.
    expect(calls[1]!.init.mode).toBe('no-cors')
    expect([...calls[1]!.headers.keys()]).toEqual([])
  })

  it('words the CORS fix for LM Studio, vLLM and unknown servers', async () => {
    const { fetch } = fakeFetch((_url, init) => (init.mode === 'no-cors' ? new Response(null) : 'network-error'))
    const lmStudio = failed(await testConnection({ type: 'openai-compatible', baseURL: 'http://localhost:1234/v1' }, undefined, options(fetch)))
    expect(lmStudio.message).toContain('Enable CORS')
    const vllm = failed(await testConnection({ type: 'openai-compatible', baseURL: 'http://127.0.0.1:8000/v1' }, undefined, options(fetch)))
    expect(vllm.message).toContain(`--allowed-origins '["${ORIGIN}"]'`)
    const other = failed(await testConnection({ type: 'openai-compatible', baseURL: 'https://llm.internal.example/v1' }, undefined, options(fetch)))
    expect(other.message).toContain(`Allow ${ORIGIN} in the server's CORS settings`)
  })

  it('reports an unreachable host when the retry fails too', async () => {
    const { fetch } = fakeFetch(() => 'network-error')
    const result = failed(await testConnection(ollamaTarget, undefined, options(fetch)))
    expect(result.cause).toBe('unreachable')
    expect(result.message).toContain("Couldn't reach localhost:11434: nothing answered there.")
    expect(result.message).toContain('ollama serve')
    // The page is not on this machine, so the browser's local-network prompt may be in the way.
    expect(result.message).toContain('local network')
  })

  it('admits it cannot tell CORS from a dead host where COEP require-corp hides opaque answers', async () => {
    const { fetch } = fakeFetch(() => 'network-error')
    const result = failed(await testConnection(ollamaTarget, undefined, options(fetch, { opaqueProbe: 'inconclusive', origin: 'http://localhost:4173' })))
    expect(result.cause).toBe('unreachable')
    expect(result.message).toMatch(/Either nothing answers there, or it refuses requests from this page \(CORS\)/)
    expect(result.message).toContain('OLLAMA_ORIGINS=http://localhost:4173')
    expect(result.message).not.toContain('local network')
  })

  it('blames the network, not CORS settings, when a hosted API cannot be reached', async () => {
    const down = fakeFetch(() => 'network-error')
    const unreachable = failed(await testConnection({ type: 'anthropic', apiKey: KEY }, undefined, options(down.fetch, { opaqueProbe: 'inconclusive' })))
    expect(unreachable).toEqual({
      status: 'failed',
      cause: 'unreachable',
      message: "Couldn't reach api.anthropic.com. Check your internet connection; a proxy, a firewall or a browser extension may also block it.",
    })
    const blocked = fakeFetch((_url, init) => (init.mode === 'no-cors' ? new Response(null) : 'network-error'))
    const cors = failed(await testConnection({ type: 'google', apiKey: KEY }, undefined, options(blocked.fetch)))
    expect(cors.cause).toBe('cors')
    expect(cors.message).toContain("Google Gemini's API allows browsers")
  })

  it('gives up on a host that never answers', async () => {
    const { fetch } = fakeFetch(() => 'hang')
    const result = failed(await testConnection(ollamaTarget, undefined, options(fetch, { timeoutMs: 30 })))
    expect(result).toMatchObject({ cause: 'unreachable' })
    expect(result.message).toContain('localhost:11434 did not answer within 0 s')
  })

  it('stops at once when the caller aborts', async () => {
    const { fetch } = fakeFetch(() => 'hang')
    const controller = new AbortController()
    const pending = testConnection(ollamaTarget, undefined, options(fetch, { signal: controller.signal }))
    controller.abort(new Error('closed'))
    await expect(pending).rejects.toThrow('closed')
  })

  it('refuses plain http to another machine from an https page (mixed content) without sending anything', async () => {
    const { fetch, calls } = fakeFetch(() => json({ data: [] }))
    const result = failed(await testConnection({ type: 'openai-compatible', baseURL: 'http://192.168.1.20:11434/v1' }, undefined, options(fetch)))
    expect(result.cause).toBe('unreachable')
    expect(result.message).toContain('mixed content')
    expect(calls).toEqual([])
  })

  it.each([401, 403])('reports a refused key on %i with the provider’s own words', async (status) => {
    const { fetch } = fakeFetch(() => json({ error: { message: 'Incorrect API key provided: sk-live-****6789.', type: 'invalid_request_error' } }, status))
    const result = failed(await testConnection(openaiTarget, undefined, options(fetch)))
    expect(result).toMatchObject({ cause: 'auth', statusCode: status })
    expect(result.message).toBe(
      `OpenAI refused the key (${status}: Incorrect API key provided: sk-live-****6789.). Check that it is complete and still valid.`,
    )
  })

  it('says a key is needed when none was sent', async () => {
    const { fetch } = fakeFetch(() => json({ error: 'unauthorized' }, 401))
    const result = failed(await testConnection({ type: 'openai-compatible', name: 'Groq', baseURL: 'https://api.groq.com/openai/v1' }, undefined, options(fetch)))
    expect(result.message).toBe('Groq needs an API key (401: unauthorized).')
  })

  it('recognises Gemini’s 400 for a bad key as an auth failure', async () => {
    const { fetch } = fakeFetch(() =>
      json({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } }, 400),
    )
    expect(failed(await testConnection({ type: 'google', apiKey: KEY }, undefined, options(fetch)))).toMatchObject({
      cause: 'auth',
      statusCode: 400,
    })
  })

  it('reports a key that cannot be sent in a header', async () => {
    const { fetch } = fakeFetch(() => {
      throw new TypeError("Failed to read the 'headers' property from 'RequestInit': String contains non ISO-8859-1 code point.")
    })
    const result = failed(await testConnection({ type: 'openai', apiKey: 'sk-“quoted”' }, undefined, options(fetch)))
    expect(result.cause).toBe('auth')
    expect(result.message).toMatch(/cannot be sent/)
  })

  it('passes on other statuses with the provider’s message', async () => {
    const { fetch } = fakeFetch(() => json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 529))
    expect(failed(await testConnection({ type: 'anthropic', apiKey: KEY }, undefined, options(fetch)))).toEqual({
      status: 'failed',
      cause: 'http',
      statusCode: 529,
      message: 'Anthropic answered 529: Overloaded',
    })
  })

  it('points at the base URL on a 404', async () => {
    const { fetch } = fakeFetch(() => new Response('404 page not found', { status: 404, statusText: 'Not Found' }))
    const result = failed(await testConnection({ type: 'openai-compatible', baseURL: 'http://localhost:11434' }, undefined, options(fetch)))
    expect(result).toMatchObject({ cause: 'http', statusCode: 404 })
    expect(result.message).toBe(
      'http://localhost:11434/models answered 404 Not Found: 404 page not found. Check the base URL (OpenAI-compatible servers usually end in /v1); if this server does not list its models, add model ids by hand.',
    )
  })

  it('reports a rate limit as such', async () => {
    const { fetch } = fakeFetch(() => json({ error: { message: 'Slow down' } }, 429))
    expect(failed(await testConnection(openaiTarget, undefined, options(fetch))).message).toBe(
      'OpenAI is rate limiting requests (429): Slow down. Try again in a moment.',
    )
  })

  it('reports HTML or a JSON body without models as an invalid response', async () => {
    const html = fakeFetch(() => new Response('<!doctype html><title>LM Studio</title>', { headers: { 'content-type': 'text/html; charset=utf-8' } }))
    const page = failed(await testConnection({ type: 'openai-compatible', baseURL: 'http://localhost:1234' }, undefined, options(html.fetch)))
    expect(page.cause).toBe('invalid-response')
    expect(page.message).toBe(
      'http://localhost:1234/models answered with text/html that is not JSON. Check that the base URL is the API root (for most servers it ends in /v1).',
    )
    const odd = fakeFetch(() => json({ status: 'ok' }))
    expect(failed(await testConnection(ollamaTarget, undefined, options(odd.fetch))).cause).toBe('invalid-response')
  })

  it('reports a model the provider does not list, with close matches', async () => {
    const { fetch } = fakeFetch(() => json({ data: [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }, { id: 'o3' }] }))
    expect(failed(await testConnection(openaiTarget, 'gpt-4o-mni', options(fetch)))).toEqual({
      status: 'failed',
      cause: 'unknown-model',
      message: 'OpenAI has no model “gpt-4o-mni”. Did you mean “gpt-4o-mini” or “gpt-4o”?',
    })
    expect(failed(await testConnection(openaiTarget, 'davinci-002', options(fetch))).message).toBe(
      'OpenAI has no model “davinci-002”. It lists 3 models, such as “gpt-4o”, “gpt-4o-mini”, “o3”.',
    )
  })

  it('accepts tags, dates and aliases of a listed model', async () => {
    const ollama = fakeFetch(() => json({ data: [{ id: 'llama3.2:latest' }] }))
    expect((await testConnection(ollamaTarget, 'llama3.2', options(ollama.fetch))).status).toBe('ok')
    const anthropic = fakeFetch(() => json({ data: [{ id: 'claude-sonnet-4-5-20250929' }] }))
    expect((await testConnection({ type: 'anthropic', apiKey: KEY }, 'claude-sonnet-4-5', options(anthropic.fetch))).status).toBe('ok')
  })
})

describe('keys never leak', () => {
  // Servers that echo the request back (a debugging proxy, a misconfigured gateway) must not put the key on screen.
  const echoes: [string, Route][] = [
    ['401 echoing headers', (_url, init) => json({ error: { message: `bad auth header: ${new Headers(init.headers).get('authorization')}` } }, 401)],
    ['500 echoing the key', () => json({ error: { message: `upstream rejected key ${KEY} (x-api-key: ${KEY})` } }, 500)],
    ['404 echoing url-encoded', () => new Response(`not found: /models?key=${encodeURIComponent(KEY)}`, { status: 404 })],
    ['html echoing', () => new Response(`<pre>Authorization: Bearer ${KEY}</pre>`, { headers: { 'content-type': 'text/html' } })],
    ['json without a list', () => json({ echo: KEY })],
    ['network error', () => 'network-error'],
  ]

  it.each(echoes)('%s', async (_name, route) => {
    const { fetch } = fakeFetch(route)
    for (const target of [openaiTarget, { type: 'anthropic', apiKey: KEY } as const, { type: 'google', apiKey: KEY } as const, { ...ollamaTarget, apiKey: KEY }]) {
      const result = await testConnection(target, 'some-model', options(fetch))
      expect(JSON.stringify(result)).not.toContain(KEY)
      expect(JSON.stringify(result)).not.toContain(KEY.slice(8))
      const listing = await fetchModelList(target, options(fetch))
      expect(JSON.stringify(listing)).not.toContain(KEY)
    }
  })

  it('redacts keys verbatim, encoded, and in the places keys travel', () => {
    expect(redactSecrets(`key ${KEY} and ${encodeURIComponent('a/b+c=d')}`, [KEY, 'a/b+c=d'])).toBe('key [redacted] and [redacted]')
    expect(redactSecrets('Authorization: Bearer abc.def-ghi', [])).toBe('Authorization: Bearer [redacted]')
    expect(redactSecrets('{"x-api-key":"sk-ant-xyz"}', [])).toBe('{"x-api-key":"[redacted]"}')
    expect(redactSecrets('GET /v1beta/models?key=AIzaSyXYZ&pageSize=1', [])).toBe('GET /v1beta/models?key=[redacted]&pageSize=1')
    expect(redactSecrets('api_key=abc123 rest', [])).toBe('api_key=[redacted] rest')
    expect(redactSecrets('nothing secret here', [undefined, ''])).toBe('nothing secret here')
  })
})

describe('opaqueProbeFor', () => {
  it('trusts the no-cors retry unless COEP require-corp blocks opaque answers', () => {
    expect(opaqueProbeFor(false, null)).toBe('conclusive')
    expect(opaqueProbeFor(true, 'credentialless')).toBe('conclusive')
    expect(opaqueProbeFor(true, 'require-corp')).toBe('inconclusive')
    expect(opaqueProbeFor(true, null)).toBe('inconclusive')
  })
})
