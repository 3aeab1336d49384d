/**
 * Thirty XSS payloads for e2e/xss.spec.ts. Each one, if it ever ran, calls `__xss(<its number>)` (a function the test
 * binds in every frame, so it counts from iframes and `javascript:` URLs too) or `alert(<number>)` (counted as a
 * dialog), and each one that could fetch names `https://evil.example/<number>…`, a host the test watches for. They
 * cover raw HTML, event handlers, dangerous URL schemes in markdown and HTML, entity and unicode disguises, CSS, and
 * breakouts from attributes, titles and alt text.
 */
export const EVIL_HOST = 'evil.example'

const corpus: [name: string, payload: (n: number) => string][] = [
  ['script element', (n) => `<script>__xss(${n})</script>`],
  ['classic alert', (n) => `<script>alert(${n})</script>`],
  ['img onerror', (n) => `<img src=x onerror=__xss(${n})>`],
  ['svg onload', (n) => `<svg onload=__xss(${n})>`],
  ['iframe srcdoc', (n) => `<iframe srcdoc="<script>parent.__xss(${n})</script>"></iframe>`],
  ['iframe javascript src', (n) => `<iframe src="javascript:__xss(${n})"></iframe>`],
  ['markdown javascript link', (n) => `[click me](javascript:__xss(${n}))`],
  ['markdown mixed-case scheme', (n) => `[click me](JaVaScRiPt:__xss(${n}))`],
  ['markdown entity-encoded scheme', (n) => `[click me](java&#115;cript:__xss(${n}))`],
  ['markdown fully entity-encoded scheme', (n) => `[click me](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;__xss(${n}))`],
  ['markdown zero-width and tab in scheme', (n) => `[click me](<\u200bjava\tscript:__xss(${n})>)`],
  ['markdown reference-style javascript link', (n) => `[click me][evil${n}]\n\n[evil${n}]: javascript:__xss(${n})`],
  ['markdown autolink javascript', (n) => `<javascript:__xss(${n})>`],
  ['markdown remote image', (n) => `![tracker](https://${EVIL_HOST}/${n}.png)`],
  ['markdown protocol-relative image', (n) => `![tracker](//${EVIL_HOST}/${n}.png)`],
  ['markdown javascript image', (n) => `![x](javascript:__xss(${n}))`],
  ['markdown svg data image', (n) => `![x](data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="__xss(${n})"/>)`],
  ['markdown alt breakout', (n) => `![x" onerror="__xss(${n})](x)`],
  ['markdown title breakout', (n) => `[x](https://ok.invalid "t\\" onmouseover=\\"__xss(${n})")`],
  ['html javascript link', (n) => `<a href="javascript:__xss(${n})">open</a>`],
  ['html data:text/html link', (n) => `<a href="data:text/html,<script>parent.__xss(${n})</script>">open</a>`],
  ['markdown data:text/html link', (n) => `[open](data:text/html;base64,${Buffer.from(`<script>__xss(${n})</script>`).toString('base64')})`],
  ['css url() in style attribute', (n) => `<div style="background:url(https://${EVIL_HOST}/${n}.css)">styled</div>`],
  ['css @import in style element', (n) => `<style>@import url("https://${EVIL_HOST}/${n}.css");</style>`],
  ['attribute breakout', (n) => `"><img src=x onerror=__xss(${n})>`],
  ['single-quote attribute breakout', (n) => `'><svg/onload=__xss(${n})>`],
  ['entity-escaped tag', (n) => `&lt;img src=x onerror=__xss(${n})&gt; and &#60;script&#62;__xss(${n})&#60;/script&#62;`],
  ['mutation (math/style) parser confusion', (n) => `<math><mtext><table><mglyph><style><img src=x onerror=__xss(${n})>`],
  ['details ontoggle and autofocus onfocus', (n) => `<details open ontoggle=__xss(${n})><summary>s</summary></details><input autofocus onfocus=__xss(${n})>`],
  ['meta refresh and base href', (n) => `<meta http-equiv="refresh" content="0;url=javascript:__xss(${n})"><base href="https://${EVIL_HOST}/${n}/">`],
]

export interface XssPayload {
  /** 1-based; what `__xss` reports when this payload runs. */
  n: number
  name: string
  text: string
}

export const XSS_PAYLOADS: readonly XssPayload[] = corpus.map(([name, payload], index) => ({ n: index + 1, name, text: payload(index + 1) }))

/** Every payload as its own markdown block, so no payload's syntax swallows the next one's. */
export const XSS_MARKDOWN = XSS_PAYLOADS.map((payload) => payload.text).join('\n\n')
