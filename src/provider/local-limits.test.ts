import { describe, expect, it } from 'vitest'
import { localServerLimits, readLlamaCpp, readLmStudio, readOllama, serverRoot } from './local-limits'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** A server that answers the paths it knows and 404s the rest, recording what it was asked. */
function server(routes: Record<string, (init: RequestInit) => Response>) {
  const asked: { path: string; init: RequestInit }[] = []
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = new URL(String(input)).pathname
    asked.push({ path, init })
    return routes[path]?.(init) ?? new Response('not found', { status: 404 })
  }) as typeof globalThis.fetch
  return { fetch, asked }
}

describe('limits a local model server reports', () => {
  it('finds the root under the OpenAI-compatible /v1, and asks nothing of other URLs', async () => {
    expect(serverRoot('http://localhost:11434/v1/')).toBe('http://localhost:11434')
    expect(serverRoot('https://api.example.com/openai')).toBeUndefined()
    const { fetch, asked } = server({})
    expect(await localServerLimits('https://api.example.com/openai', ['m'], { fetch })).toEqual(new Map())
    expect(asked).toEqual([])
  })

  it("reads LM Studio's loaded context first, else the model's maximum", () => {
    const body = { data: [{ id: 'qwen2.5-7b', max_context_length: 32_768, loaded_context_length: 8_192 }, { id: 'phi-4', max_context_length: 16_384 }, { id: 'other' }] }
    expect(readLmStudio(body, ['qwen2.5-7b', 'phi-4', 'other'])).toEqual(
      new Map([
        ['qwen2.5-7b', { context: 8_192 }],
        ['phi-4', { context: 16_384 }],
      ]),
    )
  })

  it("reads llama.cpp's started context and output cap for the model it serves", () => {
    expect(readLlamaCpp({ default_generation_settings: { n_ctx: 16_384, params: { n_predict: 2_048 } } }, ['gguf'])).toEqual(
      new Map([['gguf', { context: 16_384, output: 2_048 }]]),
    )
    expect(readLlamaCpp({ default_generation_settings: { n_ctx: 4_096, n_predict: -1 } }, ['gguf'])).toEqual(new Map([['gguf', { context: 4_096 }]]))
  })

  it("reads Ollama's num_ctx when the Modelfile sets one, else the architecture's context length", () => {
    expect(readOllama({ parameters: 'stop "<|im_end|>"\nnum_ctx 8192', model_info: { 'qwen2.context_length': 32_768 } })).toEqual({ context: 8_192 })
    expect(readOllama({ model_info: { 'general.architecture': 'gemma3', 'gemma3.context_length': 131_072 } })).toEqual({ context: 131_072 })
    expect(readOllama({ error: 'model not found' })).toBeUndefined()
  })

  it('asks Ollama per model, by POST and without any key, once the other servers said nothing', async () => {
    const { fetch, asked } = server({
      '/api/show': (init) => {
        const { model } = JSON.parse(String(init.body)) as { model: string }
        return model === 'mystery:7b' ? json({ model_info: { 'llama.context_length': 65_536 } }) : json({ error: 'not found' }, 404)
      },
    })
    const found = await localServerLimits('http://localhost:11434/v1', ['mystery:7b', 'gone:1b'], { fetch })
    expect(found).toEqual(new Map([['mystery:7b', { context: 65_536 }]]))
    expect(asked.map((entry) => entry.path)).toEqual(['/api/v0/models', '/props', '/api/show', '/api/show'])
    for (const { init } of asked) expect(new Headers(init.headers).has('authorization')).toBe(false)
  })

  it('gives up quietly on a server that hangs', async () => {
    const fetch = ((_input: RequestInfo | URL, init: RequestInit = {}) =>
      new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)))) as typeof globalThis.fetch
    expect(await localServerLimits('http://localhost:1234/v1', ['m'], { fetch, timeoutMs: 20 })).toEqual(new Map())
  })
})
