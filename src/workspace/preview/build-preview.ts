import { createContext, type PreviewProblem, type ReadFile } from './context'
import { makeInert, type InertReport } from './inert-page'
import { rewriteCss } from './css'
import { createModuleMap } from './modules'
import { dataUrl, mediaType, NAVIGATE_MESSAGE, resolveReference, text } from './references'

export type { InertReport, PreviewProblem, ReadFile }

export interface PreviewDocument {
  /** The page as one self-contained document for an iframe's `srcdoc`: with its scripts, and inert (see inert-page.ts). */
  documents: Record<PreviewScripts, string>
  /**
   * The SHA-256 of the running document. Everything it runs is inside it (scripts and modules as `data:` URLs, the
   * policy refuses any other source), so an edit to the page or to anything it loads changes it: the user's grant
   * to run the page is a grant for this digest (script-grant.ts).
   */
  digest: string
  problems: PreviewProblem[]
  /** Every project file the page read (or looked for), so a change to another one need not rebuild it. */
  files: string[]
  /** What the inert document left out. */
  inert: InertReport
}

/**
 * Whether the page's scripts run: `inert` until the user says so (see inert-page.ts), `run` once they have. Only a
 * running page needs `allow-forms` and `allow-modals`; both need `allow-scripts`, for the link handling below.
 */
export type PreviewScripts = 'inert' | 'run'

/**
 * The frame runs with an opaque origin (a sandbox without `allow-same-origin`), so it cannot fetch from the app's
 * origin even if it tried: everything it needs comes inline, and the policy refuses the network (`fetch`, XHR,
 * WebSocket, beacons, remote images and fonts), forms and nested frames. Eval stays allowed, as on any static
 * server: it reaches nothing the inline code could not. What a policy cannot refuse (the frame navigating itself,
 * WebRTC) is what the user grants by running the page's scripts.
 */
export const PREVIEW_POLICY = [
  "default-src 'none'",
  "script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' data: blob:",
  "style-src 'unsafe-inline' data:",
  'img-src data: blob:',
  'font-src data:',
  'media-src data: blob:',
  'connect-src data: blob:',
  'worker-src data: blob:',
  'frame-src data:',
  "form-action 'none'",
  "base-uri 'none'",
].join('; ')

/** The inert page's policy: no script but the link handling below (allowed by its hash), no frames, no forms. */
export async function inertPolicy(): Promise<string> {
  return [
    "default-src 'none'",
    `script-src '${await scriptHash(NAVIGATION_SCRIPT)}'`,
    "style-src 'unsafe-inline' data:",
    'img-src data: blob:',
    'font-src data:',
    'media-src data: blob:',
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ')
}

async function scriptHash(source: string): Promise<string> {
  return `sha256-${await sha256(source)}`
}

/** The SHA-256 of `source`'s UTF-8, in base64. */
async function sha256(source: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source)))
  return btoa(String.fromCharCode(...digest))
}

/**
 * A srcdoc document's base URL is its parent's, so `#top` would load the app's own address into the frame. With
 * `about:srcdoc` as its base, a fragment stays in the page, and a relative address resolves to nothing (the frame
 * cannot be sent to the app's origin); project pages are followed by the script below instead.
 */
const BASE_URL = 'about:srcdoc'

// Runs first in the page. A relative link would navigate the frame to nothing (see BASE_URL); instead the parent is
// asked to show that page of the project. Listening on the window in the bubbling phase lets the page's own handlers
// run first and cancel. The path, not the target, finds the link, so one inside a shadow root is found too.
const NAVIGATION_SCRIPT = `addEventListener('click', function (event) {
  var path = event.composedPath(), link = null
  for (var index = 0; index < path.length && !link; index++) {
    var node = path[index]
    if (node instanceof Element && (node.localName === 'a' || node.localName === 'area')) link = node
  }
  if (!link || event.defaultPrevented || event.button !== 0) return
  var target = link.getAttribute('target')
  if (target && target !== '_self') return
  var href = link.getAttribute('href')
  if (href === null) href = link.getAttribute('xlink:href')
  if (href === null || href.charAt(0) === '#' || /^([a-z][a-z0-9+.-]*:|\\/\\/)/i.test(href)) return
  event.preventDefault()
  parent.postMessage({ type: ${JSON.stringify(NAVIGATE_MESSAGE)}, href: href }, '*')
})`

// Attributes holding one URL of a file the page shows or plays.
const MEDIA_ATTRIBUTES: [selector: string, attribute: string][] = [
  ['img[src]', 'src'],
  ['input[type="image" i][src]', 'src'],
  ['source[src]', 'src'],
  ['video[src]', 'src'],
  ['video[poster]', 'poster'],
  ['audio[src]', 'src'],
  ['track[src]', 'src'],
  ['embed[src]', 'src'],
  ['object[data]', 'data'],
  ['image[href]', 'href'],
  ['use[href]', 'href'],
]

/**
 * The project's page at `entry` (an HTML file) as a document that needs no server: style sheets, classic scripts,
 * images and icons become `data:` URLs, ES modules go into an import map of `data:` URLs, and a Content Security
 * Policy refuses the network. Pure but for `read`; what could not be carried over is in `problems`.
 */
export async function buildPreview(options: { entry: string; read: ReadFile }): Promise<PreviewDocument> {
  const { context, problems, files } = createContext(options.read)
  const { entry } = options
  const bytes = await context.read(entry)
  if (!bytes) {
    context.report({ type: 'missing', file: entry, reference: entry, message: `${entry} is not in the project.` })
    return { documents: { run: '', inert: '' }, digest: '', problems, files: [...files], inert: { scripts: 0, links: 0 } }
  }
  const source = text(bytes)
  const document = new DOMParser().parseFromString(source, 'text/html')
  const head = document.head

  const bare = pageImportMap(document, entry)
  const modules = createModuleMap(context, bare)
  const work: Promise<void>[] = []

  for (const link of document.querySelectorAll('link[href]')) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/)
    if (rel.includes('modulepreload') || rel.includes('preconnect') || rel.includes('dns-prefetch') || rel.includes('prefetch')) link.remove()
    else if (rel.includes('stylesheet')) work.push(inlineSheet(link))
    else if (rel.some((value) => value === 'icon' || value === 'apple-touch-icon' || value === 'preload' || value === 'manifest')) work.push(inlineAttribute(link, 'href'))
  }
  for (const script of document.querySelectorAll('script')) {
    const type = (script.getAttribute('type') ?? '').trim().toLowerCase()
    const src = script.getAttribute('src')
    if (type === 'module') work.push(src === null ? inlineModule(script) : moduleEntry(script, src))
    else if (src !== null && (type === '' || type.includes('javascript'))) work.push(inlineAttribute(script, 'src', 'text/javascript'))
  }
  for (const style of document.querySelectorAll('style')) {
    work.push(rewriteCss(style.textContent ?? '', entry, context).then((css) => void (style.textContent = css)))
  }
  for (const element of document.querySelectorAll('[style]')) {
    work.push(rewriteCss(element.getAttribute('style') ?? '', entry, context).then((css) => element.setAttribute('style', css)))
  }
  for (const [selector, attribute] of MEDIA_ATTRIBUTES) for (const element of document.querySelectorAll(selector)) work.push(inlineAttribute(element, attribute))
  for (const element of document.querySelectorAll('img[srcset], source[srcset]')) work.push(inlineSourceSet(element))
  await Promise.all(work)
  // Read even when the page's scripts do not run: what they need (npm packages, a compiler) says whether a dev server
  // is wanted, and an edit to one of them rebuilds the page.
  const imports = await modules.imports()

  // Both documents come from the same reads, so the one the user saw inert is the one a grant lets run.
  const inert = await inertPage(document.cloneNode(true) as Document)

  // Before anything of the page: a policy applies only to what follows it (the base goes before the policy, whose
  // base-uri refuses the page's own), and the import map must precede modules.
  const added: Element[] = []
  const base = document.createElement('base')
  base.setAttribute('href', BASE_URL)
  added.push(base)
  const policy = document.createElement('meta')
  policy.setAttribute('http-equiv', 'Content-Security-Policy')
  policy.setAttribute('content', PREVIEW_POLICY)
  added.push(policy)
  const navigation = document.createElement('script')
  navigation.textContent = NAVIGATION_SCRIPT
  added.push(navigation)
  if (Object.keys(imports).length > 0) {
    const map = document.createElement('script')
    map.setAttribute('type', 'importmap')
    // Keys are URL-encoded paths and values base64 `data:` URLs: the JSON holds no `<`, so it cannot end the element.
    map.textContent = JSON.stringify({ imports })
    added.push(map)
  }
  head.prepend(...added)

  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : ''
  const html = doctype + document.documentElement.outerHTML
  return { documents: { run: html, inert: inert.html }, digest: await sha256(html), problems, files: [...files], inert: inert.report }

  async function fileData(reference: string, type?: string): Promise<string | undefined> {
    const bytes = await load(reference)
    return bytes && dataUrl(type ?? mediaType(bytes.path), bytes.data)
  }

  async function load(reference: string): Promise<{ path: string; data: Uint8Array; hash: string } | undefined> {
    const target = resolveReference(entry, reference)
    if (target.type === 'inline') return undefined
    if (target.type === 'external') {
      context.report({ type: 'external', file: entry, reference, message: `${reference} is on another host; the preview loads nothing from the network.` })
      return undefined
    }
    const data = await context.read(target.path)
    if (!data) {
      context.report({ type: 'missing', file: entry, reference, message: `${reference} is not in the project.` })
      return undefined
    }
    return { path: target.path, data, hash: target.hash }
  }

  async function inlineAttribute(element: Element, attribute: string, type?: string): Promise<void> {
    const reference = element.getAttribute(attribute) ?? ''
    const file = await load(reference)
    if (file) element.setAttribute(attribute, dataUrl(type ?? mediaType(file.path), file.data) + file.hash)
  }

  async function inlineSheet(link: Element): Promise<void> {
    const file = await load(link.getAttribute('href') ?? '')
    if (!file) return
    link.setAttribute('href', dataUrl('text/css', await rewriteCss(text(file.data), file.path, context)))
  }

  async function inlineSourceSet(element: Element): Promise<void> {
    const candidates = (element.getAttribute('srcset') ?? '').split(',').map((candidate) => candidate.trim()).filter(Boolean)
    const rewritten = await Promise.all(
      candidates.map(async (candidate) => {
        const [url = '', ...descriptor] = candidate.split(/\s+/)
        const data = await fileData(url)
        return [data ?? url, ...descriptor].join(' ')
      }),
    )
    element.setAttribute('srcset', rewritten.join(', '))
  }

  async function inlineModule(script: Element): Promise<void> {
    script.textContent = await modules.rewrite(script.textContent ?? '', entry)
  }

  async function moduleEntry(script: Element, src: string): Promise<void> {
    // An import map applies to specifiers, not to a script's src: the entry becomes a one-line module importing it.
    // A src is a URL (`main.js` is a file beside the page, not a package), so it is resolved as one first.
    const target = resolveReference(entry, src)
    if (target.type === 'external') context.report({ type: 'external', file: entry, reference: src, message: `${src} is on another host; the preview loads nothing from the network.` })
    if (target.type !== 'project') return
    const statement = `import ${JSON.stringify(target.path)}`
    const rewritten = await modules.rewrite(statement, entry)
    // An entry that cannot be carried over (a `.ts` a dev server would compile, a missing file) is left out, its
    // problem named, rather than left to be refused from the app's origin.
    script.removeAttribute('src')
    if (rewritten !== statement) script.textContent = rewritten
  }

  function pageImportMap(page: Document, file: string): Map<string, string> {
    const bare = new Map<string, string>()
    for (const map of page.querySelectorAll('script[type="importmap" i]')) {
      let parsed: unknown
      try {
        parsed = JSON.parse(map.textContent ?? '')
      } catch {
        continue
      }
      const imports = typeof parsed === 'object' && parsed !== null && 'imports' in parsed ? parsed.imports : undefined
      if (typeof imports !== 'object' || imports === null) continue
      for (const [name, value] of Object.entries(imports)) {
        if (typeof value !== 'string') continue
        const target = resolveReference(file, value)
        if (target.type === 'project') bare.set(name, target.path + (value.endsWith('/') && !target.path.endsWith('/') ? '/' : ''))
      }
      // Its project entries now live in ours; anything else it maps would come from the network, which is refused.
      map.remove()
    }
    return bare
  }
}

/** `document` (with its files inlined) as the inert page, with the preview's own base, policy and link handling. */
async function inertPage(document: Document): Promise<{ html: string; report: InertReport }> {
  const { document: inert, report } = await settledInert(document)
  const base = inert.createElement('base')
  base.setAttribute('href', BASE_URL)
  const policy = inert.createElement('meta')
  policy.setAttribute('http-equiv', 'Content-Security-Policy')
  policy.setAttribute('content', await inertPolicy())
  const navigation = inert.createElement('script')
  navigation.textContent = NAVIGATION_SCRIPT
  inert.head.prepend(base, policy, navigation)
  // A srcdoc document is never in quirks mode, whatever its doctype: this one parses here as it will there.
  return { html: `<!DOCTYPE html>${inert.documentElement.outerHTML}`, report }
}

/** How many times the inert page is parsed again before it is taken to be what the frame will parse. */
const SETTLE_ROUNDS = 3

/**
 * The page made inert, then written out and parsed again until nothing changes: markup can parse into a different
 * tree the second time (elements inside a `<noscript>`, foreign content), and the frame parses what is written, so
 * what was checked must be what it gets. A page that does not settle is refused rather than shown.
 */
async function settledInert(document: Document): Promise<{ document: Document; report: InertReport }> {
  const report = makeInert(document)
  let html = `<!DOCTYPE html>${document.documentElement.outerHTML}`
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const again = new DOMParser().parseFromString(html, 'text/html')
    makeInert(again)
    const written = `<!DOCTYPE html>${again.documentElement.outerHTML}`
    if (written === html) return { document: again, report }
    html = written
  }
  throw new Error('the page could not be shown without running it: its markup reads differently each time it is parsed')
}
