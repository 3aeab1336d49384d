import { decodeCharacterReferences } from './character-references'

// Model output is untrusted: a link or image in it must never run script, and an image must
// never reach the network until the user asks for it (a remote image is a tracking beacon).

const ALLOWED_LINK_SCHEMES = new Set(['http', 'https', 'mailto'])
const EXTERNAL_LINK_SCHEMES = new Set(['http', 'https'])
const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp)[;,]/

// What the URL parser itself drops: leading and trailing C0 controls and spaces, and every
// tab or newline, so `java\tscript:` still means `javascript:` to the browser.
const URL_EDGE_NOISE = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g
const URL_INNER_NOISE = /[\t\n\r]/g

// A wider net for reading the scheme only: controls, every kind of space, zero-width and
// bidi marks. Dropping more than the browser does can only turn a harmless relative link into
// a blocked one, never the reverse.
const SCHEME_NOISE = /[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/g
const SCHEME = /^([a-z][a-z0-9+.-]*):/

export type ImageSource =
  | { kind: 'inline'; src: string }
  /** `host` is empty for a relative path. */
  | { kind: 'external'; src: string; host: string }
  | { kind: 'blocked' }

function cleanUrl(url: string): string {
  return url.replace(URL_EDGE_NOISE, '').replace(URL_INNER_NOISE, '')
}

function schemeOf(url: string): string | undefined {
  return SCHEME.exec(url.replace(SCHEME_NOISE, '').toLowerCase())?.[1]
}

// Reading the scheme both as written and with character references decoded means a
// `java&#115;cript:` that reached us undecoded is blocked too, whoever forgot to decode it.
function schemesOf(url: string): Array<string | undefined> {
  return [schemeOf(url), schemeOf(decodeCharacterReferences(url))]
}

/**
 * Returns the href to put on an `<a>`, or undefined when the link must render as plain text.
 * Allows http, https, mailto, and scheme-less links (relative paths, `#hash`, `//host/path`).
 * Expects the destination with character references already decoded, as a browser would see it.
 */
export function safeLinkHref(href: string): string | undefined {
  const url = cleanUrl(href)
  if (url === '') return undefined
  const schemes = schemesOf(url)
  const allowed = schemes.every((scheme) => scheme === undefined || ALLOWED_LINK_SCHEMES.has(scheme))
  return allowed ? url : undefined
}

/** Whether a safe href leaves the app, so it should open in a new tab. */
export function isExternalHref(href: string): boolean {
  const scheme = schemeOf(href)
  if (scheme !== undefined) return EXTERNAL_LINK_SCHEMES.has(scheme)
  // Browsers read a backslash as a slash in http(s) URLs, so `\\host` is protocol-relative too.
  return /^[/\\]{2}/.test(href)
}

function hostOf(url: string): string {
  if (!/^[/\\]{2}|^[a-z][a-z0-9+.-]*:/i.test(url)) return ''
  try {
    return new URL(url, 'https://relative.invalid').host
  } catch {
    return ''
  }
}

/**
 * Decides how an image may be shown: `inline` raster data URLs need no network and may render at
 * once; `external` images (http, https, protocol-relative or relative) wait for a click; anything
 * else, including SVG data URLs, which can carry script, is `blocked` and shows its text only.
 */
export function classifyImageSource(src: string): ImageSource {
  const url = cleanUrl(src)
  if (url === '') return { kind: 'blocked' }
  const schemes = schemesOf(url)
  if (schemes.every((scheme) => scheme === 'data')) {
    // Data URLs may wrap base64 across lines; the browser ignores that whitespace too.
    const compact = url.replace(SCHEME_NOISE, '')
    return INLINE_IMAGE.test(compact.toLowerCase()) ? { kind: 'inline', src: compact } : { kind: 'blocked' }
  }
  const fetchable = schemes.every((scheme) => scheme === undefined || EXTERNAL_LINK_SCHEMES.has(scheme))
  if (!fetchable) return { kind: 'blocked' }
  // A URL that does not parse would only fail to load; there is nothing to offer.
  if (hostOf(url) === '' && schemeOf(url) !== undefined) return { kind: 'blocked' }
  return { kind: 'external', src: url, host: hostOf(url) }
}
