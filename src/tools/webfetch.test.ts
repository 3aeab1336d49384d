import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeToolContext } from './testing/tool-context'
import { htmlToText, webFetchTool } from './webfetch'

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

  it('asks webfetch permission with the URL before fetching', async () => {
    const fetched = vi.fn(async () => new Response('ok'))
    vi.stubGlobal('fetch', fetched)
    const ctx = makeToolContext()
    await webFetchTool.execute({ url: 'https://example.com/a?b=1' }, ctx)
    expect(ctx.asks).toEqual([
      { permission: 'webfetch', patterns: ['https://example.com/a?b=1'], always: ['*'], metadata: { url: 'https://example.com/a?b=1', timeout: undefined } },
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
