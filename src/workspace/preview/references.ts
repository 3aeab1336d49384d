/**
 * How the preview names the project's files: paths are project-absolute (`/src/util.js`, the project root is `/`),
 * references in HTML, CSS and JavaScript resolve the way a static server at the root would resolve them.
 */

/** The `type` of the message the preview frame posts to its parent when a link to another page is followed. */
export const NAVIGATE_MESSAGE = 'tabcode-preview:navigate'

/** What one reference in a page, style sheet or module points at. */
export type Reference =
  | { type: 'project'; path: string; hash: string }
  /** A `data:`, `blob:`, `javascript:` or `#fragment` reference: nothing to load from the project. */
  | { type: 'inline' }
  /** Another host (`https://…`, `//cdn…`): the preview loads nothing from the network. */
  | { type: 'external'; url: string }

// A host that cannot exist stands in for the project's root while the URL parser resolves `..`, `%20`, `?query`.
const ROOT = 'http://project.invalid'
const SCHEME = /^[a-z][a-z0-9+.-]*:/i

export function resolveReference(from: string, reference: string): Reference {
  const trimmed = reference.trim()
  if (trimmed === '' || trimmed.startsWith('#')) return { type: 'inline' }
  if (trimmed.startsWith('//')) return { type: 'external', url: trimmed }
  if (SCHEME.test(trimmed)) return /^(https?|wss?|ftp):/i.test(trimmed) ? { type: 'external', url: trimmed } : { type: 'inline' }
  let url: URL
  try {
    url = new URL(trimmed, ROOT + encodePath(from))
  } catch {
    return { type: 'inline' }
  }
  let path: string
  try {
    path = decodeURIComponent(url.pathname)
  } catch {
    path = url.pathname
  }
  return { type: 'project', path, hash: url.hash }
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/')
}

/** The import-map key a project module is known by: an absolute URL, so no base URL is needed to resolve it. */
export function moduleKey(path: string): string {
  return `tabcode-preview:${encodePath(path).replace(/'/g, '%27')}`
}

const TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  json: 'application/json',
  map: 'application/json',
  txt: 'text/plain',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  vtt: 'text/vtt',
  wasm: 'application/wasm',
  xml: 'application/xml',
  pdf: 'application/pdf',
}

export function extension(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase()
}

export function mediaType(path: string): string {
  return TYPES[extension(path)] ?? 'application/octet-stream'
}

export function isJavaScript(path: string): boolean {
  return ['js', 'mjs', 'cjs'].includes(extension(path))
}

/** A `data:` URL in base64, which never holds a quote, `<` or `>` that could end the attribute or element it sits in. */
export function dataUrl(type: string, data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data
  let binary = ''
  // In slices: one call with every byte as an argument overflows the stack past ~100 K.
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  const charset = type.startsWith('text/') || type === 'application/json' || type === 'image/svg+xml' ? ';charset=utf-8' : ''
  return `data:${type}${charset};base64,${btoa(binary)}`
}

const decoder = new TextDecoder()
export function text(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

/**
 * Where a link's `href` leads, read as the browser's URL parser reads it (tabs and newlines anywhere are dropped,
 * a backslash is a slash): `fragment` stays in the page, `page` is relative, so one of the project's pages, and
 * `elsewhere` is anything else (another host, `javascript:`, `data:`, `mailto:`, an empty address).
 */
export function linkTarget(href: string): 'fragment' | 'page' | 'elsewhere' {
  const cleaned = href.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  if (cleaned.startsWith('#')) return 'fragment'
  if (cleaned === '' || SCHEME.test(cleaned) || /^[\\/]{2}/.test(cleaned)) return 'elsewhere'
  try {
    return new URL(cleaned, `${ROOT}/page.html`).origin === ROOT ? 'page' : 'elsewhere'
  } catch {
    return 'elsewhere'
  }
}

/** The project page a link leads to (`about.html`, `docs/`, `/`), or undefined for anything but an HTML page. */
export function linkedPage(from: string, href: string): string | undefined {
  const target = resolveReference(from, href)
  if (target.type !== 'project') return undefined
  const path = target.path.endsWith('/') ? `${target.path}index.html` : target.path
  return ['html', 'htm'].includes(extension(path)) ? path : undefined
}
