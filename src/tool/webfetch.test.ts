import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeTestContext } from '../session/test-context'
import type { ToolContext } from './tool'
import { htmlToText, webFetchTool } from './webfetch'

function context(abort = new AbortController().signal): ToolContext {
  return { store: makeTestContext().context, sessionID: 'ses_1', messageID: 'msg_1', callID: 'c', abort, progress: () => {} }
}

afterEach(() => vi.unstubAllGlobals())

describe('webfetch', () => {
  it('reads HTML as text', () => {
    expect(htmlToText('<html><head><style>p{}</style><script>x()</script></head><body><h1>Title</h1><p>One &amp; two</p></body></html>')).toBe(
      'Title\nOne & two',
    )
  })

  it('returns the text of a page', async () => {
    vi.stubGlobal('fetch', async () => new Response('<p>Hello</p>', { headers: { 'content-type': 'text/html' } }))
    const result = await webFetchTool.execute({ url: 'https://example.com/docs' }, context())
    expect(result).toMatchObject({ title: 'example.com/docs', output: 'Hello' })
  })

  it('says when the browser refused the request, which is usually CORS', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(webFetchTool.execute({ url: 'https://example.com/' }, context())).rejects.toThrow(/CORS/)
  })

  it('reports HTTP errors with their status', async () => {
    vi.stubGlobal('fetch', async () => new Response('nope', { status: 404, statusText: 'Not Found' }))
    await expect(webFetchTool.execute({ url: 'https://example.com/x' }, context())).rejects.toThrow('HTTP 404 Not Found')
  })
})
