import type { BuildContext } from './context'
import { dataUrl, mediaType, resolveReference, text } from './references'

// Comments first, so a `url()` inside one is left alone; then `@import` (a string or a url()), then any url().
const CSS_REFERENCE =
  /\/\*[\s\S]*?\*\/|@import\s+(?:url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|"([^"]*)"|'([^']*)')|url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s'"]*))\s*\)/gi

/**
 * A style sheet with every project file it names (`url()`, `@import`) made into a `data:` URL, so it needs nothing
 * from a server. `file` is where the sheet lives (an HTML file for a `<style>` or `style=""`); `importing` is the
 * chain of sheets importing this one, to stop at a cycle.
 */
export async function rewriteCss(css: string, file: string, context: BuildContext, importing: readonly string[] = []): Promise<string> {
  const pieces: (string | Promise<string>)[] = []
  let last = 0
  for (const match of css.matchAll(CSS_REFERENCE)) {
    const [whole] = match
    if (whole.startsWith('/*')) continue
    pieces.push(css.slice(last, match.index))
    last = match.index + whole.length
    const isImport = whole[0] === '@'
    const reference = (isImport ? (match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5]) : (match[6] ?? match[7] ?? match[8])) ?? ''
    pieces.push(replace(whole, reference, isImport))
  }
  pieces.push(css.slice(last))
  return (await Promise.all(pieces)).join('')

  async function replace(whole: string, reference: string, isImport: boolean): Promise<string> {
    const target = resolveReference(file, reference)
    if (target.type === 'inline') return whole
    if (target.type === 'external') {
      context.report({ type: 'external', file, reference, message: `${reference} is on another host; the preview loads nothing from the network.` })
      return whole
    }
    const bytes = await context.read(target.path)
    if (!bytes) {
      context.report({ type: 'missing', file, reference, message: `${reference} is not in the project.` })
      return whole
    }
    if (!isImport) return `url("${dataUrl(mediaType(target.path), bytes)}${target.hash}")`
    if (target.path === file || importing.includes(target.path)) {
      context.report({ type: 'import-cycle', file, reference, message: `${reference} imports itself through ${file}.` })
      return whole
    }
    const sheet = await rewriteCss(text(bytes), target.path, context, [...importing, file])
    return `@import url("${dataUrl('text/css', sheet)}")`
  }
}
