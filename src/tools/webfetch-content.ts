import TurndownService from 'turndown'
// @ts-expect-error domino's types declare a module named `domino`, not this package; the one function used is typed below.
import domino from '@mixmark-io/domino'

/*
 * webfetch's HTML conversions, loaded only when a fetch returns HTML (webfetch.ts imports this module with
 * `import()`), so the engine's chunk carries neither library.
 *
 * turndown is what opencode converts with, and it is already in the app: just-bash's `html-to-markdown` runs it in
 * this worker over domino (workspace/shell/browser/turndown.ts), so the bundler puts both in one chunk the two share
 * and webfetch adds no bytes. turndown's browser build would parse a string with `DOMParser` or `document`, which a
 * worker has neither of: it is always handed a node of domino's (a DOM written in JavaScript) here.
 */

interface Domino {
  createDocument(html: string, force?: boolean): Document
}

/** Elements whose content is never text a reader sees (opencode skips the same in its text format). */
const HIDDEN = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE', 'HEAD'])

/** Elements set apart by a blank line in the text format. */
const PARAGRAPH = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DETAILS', 'DL', 'FIELDSET', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3',
  'H4', 'H5', 'H6', 'HEADER', 'HR', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'TABLE', 'UL',
])

/** Elements that start a line of their own in the text format. */
const LINE = new Set(['DD', 'DIV', 'DT', 'FIGCAPTION', 'LI', 'SUMMARY', 'TR'])

function parse(html: string): Document {
  // `force`: parse even an empty string into a whole document, as a page would be.
  return (domino as Domino).createDocument(html, true)
}

let converter: TurndownService | undefined

/**
 * The page as Markdown, with the options opencode gives turndown (ATX headings, `-` bullets, fenced code). Differs
 * from opencode (docs/differences-from-opencode.md): what a reader never sees (`noscript`, frames, embeds) is dropped
 * too, beside the scripts, styles, meta and links opencode drops.
 */
export function htmlToMarkdown(html: string): string {
  converter ??= new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '*',
  }).remove(['script', 'style', 'meta', 'link', 'noscript', 'iframe', 'object', 'embed', 'template'])
  return converter.turndown(parse(html).body).trim()
}

/**
 * What a reader of the page sees as text: no tags, scripts or styles; a line per block, at most one blank line.
 * Differs from opencode, which joins the text nodes as the source spaced them (docs/differences-from-opencode.md).
 */
export function htmlToText(html: string): string {
  let out = ''
  const breakLine = (lines: number) => {
    if (!out) return
    let trailing = 0
    while (trailing < lines && out[out.length - 1 - trailing] === '\n') trailing++
    if (trailing < lines) out += '\n'.repeat(lines - trailing)
  }
  const walk = (node: Node, preformatted: boolean) => {
    if (node.nodeType === 3) {
      const text = node.nodeValue ?? ''
      if (preformatted) return void (out += text)
      // Source indentation is not the page's: a line starts at its first word.
      const collapsed = text.replace(/\s+/g, ' ')
      const last = out[out.length - 1]
      out += last === undefined || last === '\n' || last === '\t' ? collapsed.trimStart() : collapsed
      return
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return
    const name = node.nodeType === 1 ? (node as Element).tagName.toUpperCase() : ''
    if (HIDDEN.has(name)) return
    if (name === 'BR') return void (out += '\n')
    const lines = PARAGRAPH.has(name) ? 2 : LINE.has(name) ? 1 : 0
    breakLine(lines)
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, preformatted || name === 'PRE')
    breakLine(lines)
    if (name === 'TD' || name === 'TH') out += '\t'
  }
  walk(parse(html), false)
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
