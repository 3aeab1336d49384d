import { describe, expect, it, vi } from 'vitest'
import { BLOB_BODY_CHARS, providerFetch } from './provider-fetch'

const events = (...texts: string[]) =>
  texts.map((text) => `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`).join('')
const stream = (text: string) => new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_1' } })
const contents = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((event) => (JSON.parse(event.slice(6)) as { choices: { delta: { content: string } }[] }).choices[0]?.delta.content)

describe('providerFetch', () => {
  it('coalesces a Chat Completions event stream and keeps its status and headers', async () => {
    const fetch = providerFetch(async () => stream(events('a', 'b', 'c')), { coalesce: true })
    const response = await fetch('https://example.test/v1/chat/completions')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBe('req_1')
    expect(contents(await response.text())).toEqual(['abc'])
  })

  it('leaves the stream alone for providers that do not speak Chat Completions', async () => {
    const fetch = providerFetch(async () => stream(events('a', 'b')), { coalesce: false })
    expect(contents(await (await fetch('https://example.test')).text())).toEqual(['a', 'b'])
  })

  it('hands back errors and other answers untouched', async () => {
    const error = new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { 'content-type': 'text/event-stream', 'retry-after': '2' } })
    expect(await providerFetch(async () => error, { coalesce: true })('https://example.test')).toBe(error)
    const json = new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } })
    expect(await providerFetch(async () => json, { coalesce: true })('https://example.test')).toBe(json)
  })

  it('sends a long prompt as a Blob with the same bytes, and a short one as it is', async () => {
    const bodies: unknown[] = []
    const fetch = providerFetch(
      async (_input, init) => {
        bodies.push(init?.body)
        return new Response('ok')
      },
      { coalesce: true },
    )
    const long = JSON.stringify({ messages: ['é'.repeat(BLOB_BODY_CHARS)] })
    await fetch('https://example.test', { method: 'POST', body: long, headers: { 'Content-Type': 'application/json' } })
    await fetch('https://example.test', { method: 'POST', body: '{"short":true}' })
    expect(bodies[0]).toBeInstanceOf(Blob)
    expect(await (bodies[0] as Blob).text()).toBe(long)
    expect(bodies[1]).toBe('{"short":true}')
  })

  it('calls the global fetch as a method when given none (an unbound browser fetch throws)', async () => {
    const global = vi.fn(async function (this: unknown) {
      if (this !== globalThis) throw new TypeError('Illegal invocation')
      return new Response('ok')
    })
    vi.stubGlobal('fetch', global)
    try {
      expect(await (await providerFetch(undefined, { coalesce: true })('https://example.test')).text()).toBe('ok')
      expect(global).toHaveBeenCalledTimes(1)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
