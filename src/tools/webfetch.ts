import { z } from 'zod'
import type { PermissionRequest } from '../core/ports'
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

/**
 * What a fetch of `url` asks: the host (with its port when not the scheme's default), so an answer holds for that
 * host and "always" remembers it for the project; a later fetch of another host asks again. opencode allows every
 * fetch by default and asks under the whole URL; here a fetch is a way out of the tab (a secret the model read can
 * ride in the URL), so it asks per host. The user's own rules can still allow a host, a wildcard such as
 * `*.github.com`, or `*`.
 */
export function webfetchRequest(url: URL, timeout?: number): PermissionRequest {
  // A URL's host may hold `*` (`http://*/` parses), which as a remembered pattern would allow every host.
  if (url.host.includes('*')) throw new Error(`${url.host} is not a host that can be fetched`)
  return {
    permission: 'webfetch',
    patterns: [url.host],
    always: [url.host],
    metadata: { url: url.href, host: url.host, ...(timeout !== undefined ? { timeout } : {}) },
  }
}

/**
 * What following a redirect asks. The browser hides where a redirect leads (a `manual` redirect is opaque), so it
 * could reach any host: only a rule that allows every host (`*`) lets it through without a question, and the answer
 * is never remembered.
 */
export function redirectRequest(url: URL): PermissionRequest {
  return { permission: 'webfetch', patterns: ['*'], always: [], metadata: { url: url.href, host: url.host, redirect: true } }
}

export const webFetchTool = defineTool({
  id: 'webfetch',
  description: [
    'Fetch a URL and return its content as text (HTML is reduced to its text). Runs in the browser, so it only',
    'works for sites that allow cross-origin requests (CORS); when a site does not, the result says so. The user is',
    'asked before each new host is contacted.',
  ].join(' '),
  parameters: z.object({
    url: z.string().url().describe('The http(s) URL to fetch'),
    timeout: z.number().int().positive().max(MAX_TIMEOUT_MS / 1000).optional().describe('Timeout in seconds (default 30)'),
  }),
  async execute(input, context) {
    const url = new URL(input.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('Only http and https URLs can be fetched')
    await context.ask(webfetchRequest(url, input.timeout))
    const timeout = AbortSignal.timeout(input.timeout ? input.timeout * 1000 : WEBFETCH_TIMEOUT_MS)
    const signal = AbortSignal.any([context.abort, timeout])
    context.progress({ title: `Fetching ${url.host}` })
    const request = async (redirect: RequestRedirect) => {
      try {
        return await fetch(url, { signal, credentials: 'omit', redirect })
      } catch (error) {
        if (context.abort.aborted) throw error
        if (timeout.aborted) throw new Error(`Fetching ${url} timed out`)
        throw new Error(
          `Could not fetch ${url}: the browser refused or could not reach it. Most sites do not allow requests from ` +
            'other web pages (CORS), and tabcode runs in a browser tab, so this page cannot be read from here.',
        )
      }
    }
    // Never followed blindly: a redirect to another host would reach a host the user was not asked about.
    let response = await request('manual')
    if (response.type === 'opaqueredirect') {
      await context.ask(redirectRequest(url))
      response = await request('follow')
    }
    if (!response.ok) throw new Error(`Fetching ${url} failed with HTTP ${response.status} ${response.statusText}`)
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > MAX_BYTES) throw new Error(`The response is too large (${declared} bytes; the limit is ${MAX_BYTES})`)
    const body = await response.text()
    const type = response.headers.get('content-type') ?? ''
    const text = type.includes('html') ? htmlToText(body) : body
    const landed = response.url ? new URL(response.url) : url
    return { title: `${landed.host}${landed.pathname}`, output: text.slice(0, MAX_BYTES), metadata: { status: response.status, contentType: type } }
  },
})
