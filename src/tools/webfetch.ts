import { z } from 'zod'
import { toBase64 } from '../core/attachments'
import { isRaster, rasterMime, sniffBytes } from '../core/file-type'
import type { PermissionRequest } from '../core/ports'
import { defineTool } from './tool'

export const WEBFETCH_TIMEOUT_MS = 30_000
const MAX_TIMEOUT_MS = 120_000
const MAX_BYTES = 5 * 1024 * 1024

/** What the model can ask a page to be returned as (opencode's three); Markdown unless it says otherwise. */
export const WEBFETCH_FORMATS = ['markdown', 'text', 'html'] as const
export type WebfetchFormat = (typeof WEBFETCH_FORMATS)[number]

/**
 * The Accept header per format, as opencode sends them: the format asked for first, HTML as the fallback. Each is a
 * CORS-safelisted value (under 128 bytes, no forbidden characters), so it adds no preflight a site could refuse.
 */
const ACCEPT: Record<WebfetchFormat, string> = {
  markdown: 'text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1',
  text: 'text/plain;q=1.0, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1',
  html: 'text/html;q=1.0, application/xhtml+xml;q=0.9, text/plain;q=0.8, text/markdown;q=0.7, */*;q=0.1',
}

/**
 * The body as the model asked for it. Only HTML is converted (the converters are loaded here, on the first page that
 * needs them); `html` and every other type come back as they are.
 */
export async function formatBody(body: string, contentType: string, format: WebfetchFormat): Promise<string> {
  if (format === 'html' || !/html/i.test(contentType)) return body
  const { htmlToMarkdown, htmlToText } = await import('./webfetch-content')
  return format === 'markdown' ? htmlToMarkdown(body) : htmlToText(body)
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

function tooLarge(bytes: number, more = false): string {
  return `The response is too large (${more ? 'over ' : ''}${bytes} bytes; the limit is ${MAX_BYTES}, 5 MB)`
}

/**
 * The body, read until it passes the limit. A server may leave the length out or understate it, so what arrives is
 * counted, and the download stops as soon as it is over rather than holding all of it first.
 */
async function readLimited(response: Response): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer())
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BYTES) {
      await reader.cancel().catch(() => {})
      throw new Error(tooLarge(MAX_BYTES, true))
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

export const webFetchTool = defineTool({
  id: 'webfetch',
  description: [
    'Fetch a URL and return its content: an HTML page as Markdown (the default), as plain text (`format: "text"`) or',
    'as it is (`format: "html"`); other content as it is. Runs in the browser, so it only works for sites that allow',
    'cross-origin requests (CORS); when a site does not, the result says so. The user is asked before each new host is',
    'contacted. Responses over 5 MB are refused.',
  ].join(' '),
  parameters: z.object({
    url: z.string().url().describe('The http(s) URL to fetch'),
    format: z
      .enum(WEBFETCH_FORMATS)
      .default('markdown')
      .describe('How to return an HTML page: "markdown" (default), "text" (no tags) or "html" (as it is)'),
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
        return await fetch(url, { signal, credentials: 'omit', redirect, headers: { accept: ACCEPT[input.format] } })
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
    if (declared > MAX_BYTES) throw new Error(tooLarge(declared))
    const bytes = await readLimited(response)
    const type = response.headers.get('content-type') ?? ''
    const landed = response.url ? new URL(response.url) : url
    // opencode's title is the whole URL; the query (where a secret would ride) stays out of the card here.
    const title = `${landed.host}${landed.pathname}${type ? ` (${type})` : ''}`
    const metadata = { status: response.status, contentType: type, format: input.format }
    // As opencode does, an image goes to the model as an attachment; only one whose bytes prove it a PNG, JPEG, GIF or
    // WebP (what models take), with the type its bytes have rather than the one the site claims.
    const kind = /^image\//i.test(type) ? sniffBytes(bytes) : undefined
    if (kind && isRaster(kind)) {
      const mime = rasterMime(kind)
      const filename = landed.pathname.split('/').pop() || landed.host
      return {
        title,
        output: 'Image fetched successfully',
        metadata,
        attachments: [{ mime, url: `data:${mime};base64,${toBase64(bytes)}`, filename }],
      }
    }
    if (kind && kind !== 'text') {
      const output = `${landed.href} is an image (${type}, ${bytes.byteLength} bytes) in a format models do not take (PNG, JPEG, GIF, WebP), so it cannot be shown here.`
      return { title, output, metadata }
    }
    return { title, output: await formatBody(new TextDecoder().decode(bytes), type, input.format), metadata }
  },
})
