import { createContext, type PreviewProblem, type ReadFile } from './context'
import { rewriteCss } from './css'
import { createModuleMap } from './modules'
import { dataUrl, mediaType, NAVIGATE_MESSAGE, resolveReference, text } from './references'

export type { PreviewProblem, ReadFile }

export interface PreviewDocument {
  /** The page as one self-contained document, for an iframe's `srcdoc`. */
  html: string
  problems: PreviewProblem[]
  /** Every project file the page read (or looked for), so a change to another one need not rebuild it. */
  files: string[]
}

/**
 * The frame runs with an opaque origin (a sandbox without `allow-same-origin`), so it cannot fetch from the app's
 * origin even if it tried: everything it needs comes inline, and the policy refuses the network (`fetch`, XHR,
 * WebSocket, beacons, remote images and fonts), forms and nested frames. Eval stays allowed, as on any static
 * server: it reaches nothing the inline code could not.
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

// Runs first in the page. A relative link would navigate the frame to the app's own origin (a srcdoc document's
// base URL is its parent's); instead the parent is asked to show that page of the project. Listening on the window
// in the bubbling phase lets the page's own handlers run first and cancel.
const NAVIGATION_SCRIPT = `addEventListener('click', function (event) {
  var link = event.target instanceof Element ? event.target.closest('a[href]') : null
  if (!link || event.defaultPrevented || event.button !== 0 || (link.target && link.target !== '_self')) return
  var href = link.getAttribute('href') || ''
  if (href === '' || href.charAt(0) === '#' || /^([a-z][a-z0-9+.-]*:|\\/\\/)/i.test(href)) return
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
    return { html: '', problems, files: [...files] }
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
  const imports = await modules.imports()

  // Before anything of the page: a policy applies only to what follows it, and the import map must precede modules.
  const added: Element[] = []
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
  return { html: doctype + document.documentElement.outerHTML, problems, files: [...files] }

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
