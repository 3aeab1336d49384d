import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeToolContext } from './testing/tool-context'
import { agentRules } from '../core/permission/defaults'
import { evaluate } from '../core/permission/evaluate'
import type { PermissionRule } from '../core/schema'
import { parseToolInput, type ToolContext } from './tool'
import { redirectRequest, webFetchTool, webfetchRequest } from './webfetch'

afterEach(() => vi.unstubAllGlobals())

/** Runs the tool as a model's call does: the input through its schema first, so the defaults apply. */
const fetchWith = (input: Record<string, unknown>, context: ToolContext = makeToolContext()) =>
  webFetchTool.execute(parseToolInput(webFetchTool, input), context)

/** A server that answers every request with `body` as `type`, and remembers the requests. */
function serve(body: string, type: string, headers: Record<string, string> = {}) {
  const fetched = vi.fn(async (_url: URL, _init?: RequestInit) => new Response(body, { headers: { 'content-type': type, ...headers } }))
  vi.stubGlobal('fetch', fetched)
  return fetched
}

const PAGE = [
  '<!doctype html><html><head><title>Guide</title><meta name="x" content="y"><link rel="stylesheet" href="a.css">',
  '<style>h1 { color: red }</style><script>window.secret = "from a script"</script></head><body>',
  '  <h1>Getting started</h1>',
  '  <p>Read <a href="https://example.com/docs">the docs</a> &amp; <em>then</em> <strong>build</strong>.</p>',
  '  <h2>Steps</h2>',
  '  <ul><li>Install</li><li>Run</li></ul>',
  '  <ol><li>First</li><li>Second</li></ol>',
  '  <pre><code class="language-js">const x = 1\nif (x) {\n  go()\n}</code></pre>',
  '  <table><tr><th>Name</th><th>Size</th></tr><tr><td>a.txt</td><td>3</td></tr></table>',
  '  <noscript>Turn on JavaScript</noscript><script>track("from a script")</script>',
  '</body></html>',
].join('\n')

describe('webfetch formats', () => {
  it('returns an HTML page as Markdown by default: headings, links, emphasis, lists and fenced code', async () => {
    const fetched = serve(PAGE, 'text/html; charset=utf-8')
    const result = await fetchWith({ url: 'https://example.com/docs' })
    expect(result.output).toBe(
      [
        '# Getting started',
        '',
        'Read [the docs](https://example.com/docs) & *then* **build**.',
        '',
        '## Steps',
        '',
        '-   Install',
        '-   Run',
        '',
        '1.  First',
        '2.  Second',
        '',
        '```js',
        'const x = 1',
        'if (x) {',
        '  go()',
        '}',
        '```',
        '',
        // turndown has no tables without a plugin (opencode adds none): a table's cells come as paragraphs.
        'Name',
        '',
        'Size',
        '',
        'a.txt',
        '',
        '3',
      ].join('\n'),
    )
    expect(result).toMatchObject({ title: 'example.com/docs (text/html; charset=utf-8)', metadata: { format: 'markdown', status: 200 } })
    // Markdown first, HTML as the fallback: a site that serves Markdown sends it.
    expect(new Headers(fetched.mock.calls[0]![1]!.headers).get('accept')).toMatch(/^text\/markdown;q=1\.0, .*text\/html;q=0\.7/)
  })

  it('returns a page as text without tags, scripts or styles, a line per block', async () => {
    serve(PAGE, 'text/html')
    const result = await fetchWith({ url: 'https://example.com/docs', format: 'text' })
    expect(result.output).toBe(
      [
        'Getting started',
        '',
        'Read the docs & then build.',
        '',
        'Steps',
        '',
        'Install',
        'Run',
        '',
        'First',
        'Second',
        '',
        'const x = 1',
        'if (x) {',
        '  go()',
        '}',
        '',
        'Name\tSize',
        'a.txt\t3',
      ].join('\n'),
    )
    expect(result.metadata).toMatchObject({ format: 'text' })
  })

  it('drops scripts, styles and what only a browser without JavaScript shows, in Markdown and text alike', async () => {
    serve(PAGE, 'text/html')
    for (const format of ['markdown', 'text']) {
      const { output } = await fetchWith({ url: 'https://example.com/', format })
      expect(output).not.toMatch(/from a script|color: red|Turn on JavaScript|stylesheet|<\w/)
    }
  })

  it('returns the HTML as it came when asked for html', async () => {
    const fetched = serve(PAGE, 'text/html')
    const result = await fetchWith({ url: 'https://example.com/', format: 'html' })
    expect(result.output).toBe(PAGE)
    expect(new Headers(fetched.mock.calls[0]![1]!.headers).get('accept')).toMatch(/^text\/html;q=1\.0/)
  })

  it('returns content that is not HTML as it is, whatever the format', async () => {
    const json = '{"name": "<b>not markup</b>"}'
    serve(json, 'application/json')
    for (const format of ['markdown', 'text', 'html']) expect((await fetchWith({ url: 'https://example.com/a.json', format })).output).toBe(json)
    serve('# Already Markdown\n\n<b>kept</b>', 'text/markdown')
    expect((await fetchWith({ url: 'https://example.com/readme.md' })).output).toBe('# Already Markdown\n\n<b>kept</b>')
  })

  it('returns a PNG, JPEG, GIF or WebP image as an attachment of the type its bytes prove', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
    vi.stubGlobal('fetch', async () => new Response(png, { headers: { 'content-type': 'image/jpeg' } }))
    const result = await fetchWith({ url: 'https://example.com/img/cat.jpg' })
    expect(result).toMatchObject({
      output: 'Image fetched successfully',
      attachments: [{ mime: 'image/png', url: 'data:image/png;base64,iVBORw0KGgoAAAAN', filename: 'cat.jpg' }],
    })
    // An SVG is markup, and bytes that are no image models take stay out of the request as media.
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>hi</text></svg>'
    serve(svg, 'image/svg+xml')
    const logo = await fetchWith({ url: 'https://example.com/logo.svg' })
    expect(logo.output).toBe(svg)
    expect(logo.attachments).toBeUndefined()
    vi.stubGlobal('fetch', async () => new Response(new Uint8Array([0x42, 0x4d, 0, 0, 0xff, 0xfe]), { headers: { 'content-type': 'image/bmp' } }))
    expect(await fetchWith({ url: 'https://example.com/old.bmp' })).toEqual({
      title: 'example.com/old.bmp (image/bmp)',
      output: 'https://example.com/old.bmp is an image (image/bmp, 6 bytes) in a format models do not take (PNG, JPEG, GIF, WebP), so it cannot be shown here.',
      metadata: { status: 200, contentType: 'image/bmp', format: 'markdown' },
    })
  })

  it('takes markdown when no format is given, and refuses a format it does not know with the choices', () => {
    expect(parseToolInput(webFetchTool, { url: 'https://example.com/' })).toEqual({ url: 'https://example.com/', format: 'markdown' })
    expect(() => parseToolInput(webFetchTool, { url: 'https://example.com/', format: 'pdf' })).toThrow(
      /The webfetch tool was called with invalid arguments: format: .*"markdown"\|"text"\|"html"/,
    )
  })

  it('refuses a response over 5 MB, by its declared length or by what arrived', async () => {
    serve('x', 'text/plain', { 'content-length': String(6 * 1024 * 1024) })
    await expect(fetchWith({ url: 'https://example.com/big' })).rejects.toThrow('The response is too large (6291456 bytes; the limit is 5242880, 5 MB)')
    serve('x'.repeat(5 * 1024 * 1024 + 1), 'text/plain')
    await expect(fetchWith({ url: 'https://example.com/big' })).rejects.toThrow('The response is too large (over 5242880 bytes; the limit is 5242880, 5 MB)')
  })
})

describe('webfetch', () => {

  it('asks for the host before fetching, and an answer of "always" remembers only that host', async () => {
    const fetched = vi.fn(async () => new Response('ok'))
    vi.stubGlobal('fetch', fetched)
    const ctx = makeToolContext()
    await fetchWith({ url: 'https://Example.com:443/a?b=1' }, ctx)
    expect(ctx.asks).toEqual([
      { permission: 'webfetch', patterns: ['example.com'], always: ['example.com'], metadata: { url: 'https://example.com/a?b=1', host: 'example.com' } },
    ])

    const refused = makeToolContext({
      answer: () => {
        throw new Error('The user rejected permission to use this specific tool call.')
      },
    })
    fetched.mockClear()
    await expect(fetchWith({ url: 'https://example.com/' }, refused)).rejects.toThrow('rejected permission')
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
    const result = await fetchWith({ url: 'https://example.com/go' }, ctx)
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
    await expect(fetchWith({ url: 'https://example.com/go' }, refused)).rejects.toThrow('rejected permission')
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
    await expect(fetchWith({ url: 'https://example.com/' })).rejects.toThrow(/CORS/)
  })

  it('reports HTTP errors with their status', async () => {
    vi.stubGlobal('fetch', async () => new Response('nope', { status: 404, statusText: 'Not Found' }))
    await expect(fetchWith({ url: 'https://example.com/x' })).rejects.toThrow('HTTP 404 Not Found')
  })
})
