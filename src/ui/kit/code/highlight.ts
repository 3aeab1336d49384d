import { LanguageDescription, type Language } from '@codemirror/language'
import { languages } from '@codemirror/language-data'
import { classHighlighter, highlightCode } from '@lezer/highlight'
import './code.css'

/**
 * The app's one code highlighter, on CodeMirror's Lezer parsers. The editor and every read-only view (chat code
 * blocks, tool cards) share it, so one file looks the same everywhere, and the colours come from `code.css`
 * (`tok-*` classes over theme variables), so light and dark themes both work without a second style.
 *
 * This module pulls in CodeMirror's language core: load it with `await import('../code/highlight')` on first use,
 * never statically from the main bundle. Each language's parser loads lazily on its first use and is cached.
 *
 *   const code = await import('../code/highlight')
 *   await code.highlightInto(pre, source, { file: 'src/app.tsx' })   // or { fence: 'ts' } for a ``` block
 */

/** Which language: a file name (by extension or exact name, `Dockerfile`) or a Markdown fence's info string. */
export type LanguageHint = { file: string } | { fence: string }

/** One run of text and the `tok-*` classes it gets ('' for plain text). Line breaks are runs of `"\n"`. */
export interface Token {
  text: string
  classes: string
}

/** The highlighter the editor installs too (`syntaxHighlighting(codeHighlighter)`). */
export const codeHighlighter = classHighlighter

/** Past this, parsing would cost more than it helps a reader: the text is shown plain. */
export const MAX_HIGHLIGHT_CHARS = 1_000_000

/** The language a hint names, or undefined when none is known (plain text). */
export function describeLanguage(hint: LanguageHint): LanguageDescription | undefined {
  if ('file' in hint) {
    const name = hint.file.slice(hint.file.lastIndexOf('/') + 1)
    return LanguageDescription.matchFilename(languages, name) ?? undefined
  }
  // An info string is a word and maybe attributes (```ts title="a.ts"); only the word names the language.
  const word = hint.fence.trim().split(/[\s{,]/, 1)[0]?.replace(/^\./, '') ?? ''
  if (!word) return undefined
  return (
    LanguageDescription.matchLanguageName(languages, word, false) ??
    // `py`, `rs`, `tsx`: an extension used as the name.
    LanguageDescription.matchFilename(languages, `file.${word}`) ??
    undefined
  )
}

/** The Lezer language of a hint, its parser loaded on first use; undefined for plain text. */
export async function loadLanguage(hint: LanguageHint): Promise<Language | undefined> {
  const description = describeLanguage(hint)
  if (!description) return undefined
  const support = description.support ?? (await description.load())
  return support.language
}

/** The code as runs of classed text, in order (concatenated they give `code` back). */
export async function highlightTokens(code: string, hint: LanguageHint): Promise<Token[]> {
  const language = code.length > MAX_HIGHLIGHT_CHARS ? undefined : await loadLanguage(hint)
  if (!language) return [{ text: code, classes: '' }]
  const tokens: Token[] = []
  highlightCode(
    code,
    language.parser.parse(code),
    codeHighlighter,
    (text, classes) => tokens.push({ text, classes }),
    () => tokens.push({ text: '\n', classes: '' }),
  )
  return tokens
}

/**
 * Replaces `element`'s children with the highlighted code: spans with `tok-*` classes and text nodes, never HTML,
 * so code from a model or a file cannot inject markup. Resolves once painted into the element.
 */
export async function highlightInto(element: HTMLElement, code: string, hint: LanguageHint): Promise<void> {
  const tokens = await highlightTokens(code, hint)
  const document = element.ownerDocument
  const fragment = document.createDocumentFragment()
  for (const token of tokens) {
    if (!token.classes) {
      fragment.append(token.text)
      continue
    }
    const span = document.createElement('span')
    span.className = token.classes
    span.textContent = token.text
    fragment.append(span)
  }
  element.replaceChildren(fragment)
  element.classList.add('code-highlighted')
}
