import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeToolContext } from './testing/tool-context'
import { agentRules } from '../core/permission/defaults'
import { evaluate } from '../core/permission/evaluate'
import type { PermissionRule } from '../core/schema'
import { htmlToText, redirectRequest, webFetchTool, webfetchRequest } from './webfetch'

afterEach(() => vi.unstubAllGlobals())

describe('webfetch', () => {
  it('reads HTML as text', () => {
    expect(htmlToText('<html><head><style>p{}</style><script>x()</script></head><body><h1>Title</h1><p>One &amp; two</p></body></html>')).toBe(
      'Title\nOne & two',
    )
  })

  it('returns the text of a page', async () => {
    vi.stubGlobal('fetch', async () => new Response('<p>Hello</p>', { headers: { 'content-type': 'text/html' } }))
    const result = await webFetchTool.execute({ url: 'https://example.com/docs' }, makeToolContext())
    expect(result).toMatchObject({ title: 'example.com/docs', output: 'Hello' })
  })

  it('asks for the host before fetching, and an answer of "always" remembers only that host', async () => {
    const fetched = vi.fn(async () => new Response('ok'))
    vi.stubGlobal('fetch', fetched)
    const ctx = makeToolContext()
    await webFetchTool.execute({ url: 'https://Example.com:443/a?b=1' }, ctx)
    expect(ctx.asks).toEqual([
      { permission: 'webfetch', patterns: ['example.com'], always: ['example.com'], metadata: { url: 'https://example.com/a?b=1', host: 'example.com' } },
    ])

    const refused = makeToolContext({
      answer: () => {
        throw new Error('The user rejected permission to use this specific tool call.')
      },
    })
    fetched.mockClear()
    await expect(webFetchTool.execute({ url: 'https://example.com/' }, refused)).rejects.toThrow('rejected permission')
    expect(fetched).not.toHaveBeenCalled()
  })

  it('names a host by its port too, and refuses a host that would be a wildcard', () => {
    expect(webfetchRequest(new URL('http://127.0.0.1:4183/?s=secret'), 5)).toEqual({
      permission: 'webfetch',
      patterns: ['127.0.0.1:4183'],
      always: ['127.0.0.1:4183'],
      metadata: { url: 'http://127.0.0.1:4183/?s=secret', host: '127.0.0.1:4183', timeout: 5 },
    })
    // The userinfo is not the host: the question names the host the request goes to.
    expect(webfetchRequest(new URL('https://github.com@evil.example/')).patterns).toEqual(['evil.example'])
    expect(() => webfetchRequest(new URL('http://*/'))).toThrow('* is not a host that can be fetched')
    expect(() => webfetchRequest(new URL('http://*.example.com/'))).toThrow('is not a host')
  })

  it('an approval of one host answers for that host only', () => {
    const approvals = [{ permission: 'webfetch', pattern: webfetchRequest(new URL('https://docs.example.com/a')).always[0]!, action: 'allow' as const }]
    const decide = (url: string) => evaluate('webfetch', webfetchRequest(new URL(url)).patterns[0]!, agentRules('build'), approvals).action
    expect(decide('https://docs.example.com/b?c=1')).toBe('allow')
    expect(decide('http://docs.example.com/')).toBe('allow')
    expect(decide('https://docs.example.com:8443/')).toBe('ask')
    expect(decide('https://example.com/')).toBe('ask')
    expect(decide('https://docs.example.com.evil.example/')).toBe('ask')
  })

  it('never follows a redirect without asking, and follows it once allowed', async () => {
    const redirect = { type: 'opaqueredirect', ok: false, status: 0 } as Response
    const fetched = vi.fn(async (_url: URL, init?: RequestInit) =>
      init?.redirect === 'manual' ? redirect : new Response('landed', { headers: { 'content-type': 'text/plain' } }),
    )
    vi.stubGlobal('fetch', fetched)
    const ctx = makeToolContext()
    const result = await webFetchTool.execute({ url: 'https://example.com/go' }, ctx)
    expect(result.output).toBe('landed')
    expect(ctx.asks.map((ask) => ask.patterns)).toEqual([['example.com'], ['*']])
    expect(ctx.asks[1]).toMatchObject({ always: [], metadata: { redirect: true, url: 'https://example.com/go' } })
    expect(fetched.mock.calls.map(([, init]) => init?.redirect)).toEqual(['manual', 'follow'])

    const refused = makeToolContext({
      answer: (request) => {
        if (request.patterns[0] === '*') throw new Error('The user rejected permission to use this specific tool call.')
      },
    })
    fetched.mockClear()
    await expect(webFetchTool.execute({ url: 'https://example.com/go' }, refused)).rejects.toThrow('rejected permission')
    expect(fetched.mock.calls.map(([, init]) => init?.redirect)).toEqual(['manual'])
  })

  it('a redirect passes without a question only where the rules allow every host', () => {
    const redirect = redirectRequest(new URL('https://example.com/go'))
    const decide = (rules: PermissionRule[]) => evaluate('webfetch', redirect.patterns[0]!, agentRules('build'), rules).action
    expect(decide([])).toBe('ask')
    expect(decide([{ permission: 'webfetch', pattern: 'example.com', action: 'allow' }])).toBe('ask')
    expect(decide([{ permission: 'webfetch', pattern: '*.com', action: 'allow' }])).toBe('ask')
    expect(decide([{ permission: 'webfetch', pattern: '*', action: 'allow' }])).toBe('allow')
  })

  it('says when the browser refused the request, which is usually CORS', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(webFetchTool.execute({ url: 'https://example.com/' }, makeToolContext())).rejects.toThrow(/CORS/)
  })

  it('reports HTTP errors with their status', async () => {
    vi.stubGlobal('fetch', async () => new Response('nope', { status: 404, statusText: 'Not Found' }))
    await expect(webFetchTool.execute({ url: 'https://example.com/x' }, makeToolContext())).rejects.toThrow('HTTP 404 Not Found')
  })
})
