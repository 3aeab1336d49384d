import { z } from 'zod'
import { defineTool } from './tool'

export const WEBFETCH_TIMEOUT_MS = 30_000
const MAX_TIMEOUT_MS = 120_000
const MAX_BYTES = 5 * 1024 * 1024

/** Drops markup from an HTML page so the model reads its text, not its tags. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|section|article|header|footer)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

export const webFetchTool = defineTool({
  id: 'webfetch',
  description: [
    'Fetch a URL and return its content as text (HTML is reduced to its text). Runs in the browser, so it only',
    'works for sites that allow cross-origin requests (CORS); when a site does not, the result says so.',
  ].join(' '),
  parameters: z.object({
    url: z.string().url().describe('The http(s) URL to fetch'),
    timeout: z.number().int().positive().max(MAX_TIMEOUT_MS / 1000).optional().describe('Timeout in seconds (default 30)'),
  }),
  async execute(input, context) {
    const url = new URL(input.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('Only http and https URLs can be fetched')
    await context.ask({
      permission: 'webfetch',
      patterns: [input.url],
      always: ['*'],
      metadata: { url: input.url, timeout: input.timeout },
    })
    const timeout = AbortSignal.timeout(input.timeout ? input.timeout * 1000 : WEBFETCH_TIMEOUT_MS)
    const signal = AbortSignal.any([context.abort, timeout])
    context.progress({ title: `Fetching ${url.host}` })
    let response: Response
    try {
      response = await fetch(url, { signal, credentials: 'omit', redirect: 'follow' })
    } catch (error) {
      if (context.abort.aborted) throw error
      if (timeout.aborted) throw new Error(`Fetching ${url} timed out`)
      throw new Error(
        `Could not fetch ${url}: the browser refused or could not reach it. Most sites do not allow requests from ` +
          'other web pages (CORS), and tabcode runs in a browser tab, so this page cannot be read from here.',
      )
    }
    if (!response.ok) throw new Error(`Fetching ${url} failed with HTTP ${response.status} ${response.statusText}`)
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > MAX_BYTES) throw new Error(`The response is too large (${declared} bytes; the limit is ${MAX_BYTES})`)
    const body = await response.text()
    const type = response.headers.get('content-type') ?? ''
    const text = type.includes('html') ? htmlToText(body) : body
    return { title: `${url.host}${url.pathname}`, output: text.slice(0, MAX_BYTES), metadata: { status: response.status, contentType: type } }
  },
})
