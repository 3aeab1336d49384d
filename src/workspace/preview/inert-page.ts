import { linkTarget } from './references'

/*
 * A page the agent wrote, as it shows before the user runs its scripts. Its Content Security Policy refuses every
 * load from another host, but nothing refuses a sandboxed frame's navigation of itself or WebRTC: a script could set
 * `location.href` to another host with a secret in the address, or open a peer connection to a STUN server. So
 * nothing of the page runs, and what would leave without a script is taken out: a `<meta http-equiv>` (a refresh
 * navigates), a `<base>`, `<link>`s other than the inlined style sheets and icons (a preconnect or prefetch opens a
 * connection the policy does not govern), links to other hosts (shown, not followable), `ping`s, nested frames,
 * and animations that would turn a link's address into another one.
 */

/** What the inert page left out, for the pane to say so. */
export interface InertReport {
  /** Scripts, event handler attributes and `javascript:` links that did not run. */
  scripts: number
  /** Links to other hosts, shown but not followable. */
  links: number
}

/** Elements that are gone whole: they run, navigate, or embed another document. */
const REMOVED = 'script, noscript, base, meta[http-equiv], iframe, frame, frameset, object, embed, portal, fencedframe'
/** SVG animations that could set a link's address after the page was checked. */
const HREF_ANIMATIONS = 'animate, set'

/** Makes `root` (a document or a template's content) inert in place, and says what it left out. */
export function makeInert(root: Document | DocumentFragment, report: InertReport = { scripts: 0, links: 0 }): InertReport {
  for (const element of root.querySelectorAll(REMOVED)) {
    if (element.localName === 'script') report.scripts++
    element.remove()
  }
  for (const element of root.querySelectorAll(HREF_ANIMATIONS)) {
    if (/href$/i.test(element.getAttribute('attributeName') ?? '')) element.remove()
  }
  for (const link of root.querySelectorAll('link')) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/)
    const inlined = (link.getAttribute('href') ?? '').startsWith('data:')
    const shown = rel.includes('stylesheet') || rel.some((value) => value === 'icon' || value === 'apple-touch-icon')
    if (!inlined || !shown) link.remove()
  }
  for (const element of root.querySelectorAll('*')) {
    let handlers = false
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase()
      if (name.startsWith('on')) {
        element.removeAttribute(attribute.name)
        handlers = true
      } else if (name === 'ping') element.removeAttribute(attribute.name)
    }
    if (handlers) report.scripts++
    if (element.localName === 'a' || element.localName === 'area') inertLink(element, report)
    // MathML's `href` makes any of its elements a link.
    else if (element.namespaceURI === MATHML && element.hasAttribute('href') && linkTarget(element.getAttribute('href')!) !== 'fragment') element.removeAttribute('href')
  }
  // A template's content is a document of its own to `querySelectorAll`, and a declarative shadow root makes it live.
  for (const template of root.querySelectorAll('template')) makeInert((template as HTMLTemplateElement).content, report)
  return report
}

const MATHML = 'http://www.w3.org/1998/Math/MathML'

/** A link keeps its address only when it stays in the page or leads to one of the project's pages. */
function inertLink(link: Element, report: InertReport) {
  for (const name of ['href', 'xlink:href']) {
    const href = link.getAttribute(name)
    if (href === null) continue
    const target = linkTarget(href)
    if (target === 'fragment' || target === 'page') continue
    if (/^\s*javascript:/i.test(href.replace(/[\t\n\r]/g, ''))) report.scripts++
    else report.links++
    link.removeAttribute(name)
    if (!link.hasAttribute('title')) link.setAttribute('title', `Not followed in the preview: ${href.trim()}`)
  }
}
