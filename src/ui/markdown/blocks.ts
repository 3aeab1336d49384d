import { Lexer, getDefaults, type Links, type Token } from 'marked'

/**
 * A top-level markdown token and the exact slice of the input it came from. `tokens` holds more
 * than one token only in the fallback where marked's raws stop lining up with the input.
 */
export interface MarkdownBlock {
  raw: string
  tokens: Token[]
}

export interface LexedMarkdown {
  blocks: MarkdownBlock[]
  /** Reference definitions (`[name]: url`) found anywhere in the text. */
  links: Links
}

// Fresh default options on every call: `marked.use()` elsewhere in the app mutates the shared
// defaults, and an extension's unknown tokens or hooks must not leak into this renderer.
function lex(text: string) {
  return new Lexer(getDefaults()).lex(text)
}

// marked turns `\r\n` and `\r` into `\n` before lexing, so token `raw`s are slices of that
// normalized text. This maps a length in the normalized text back to a length in the original.
function originalLength(text: string, normalizedLength: number): number {
  let original = 0
  for (let normalized = 0; normalized < normalizedLength && original < text.length; normalized += 1) {
    original += text[original] === '\r' && text[original + 1] === '\n' ? 2 : 1
  }
  return original
}

/**
 * Lexes `text` into top-level blocks whose `raw`s concatenate back to `text` exactly, so a
 * streaming renderer can keep every finished block and re-parse only the last, open one.
 */
export function lexBlocks(text: string): LexedMarkdown {
  const tokens = lex(text)
  const normalized = text.replace(/\r\n?/g, '\n')
  const blocks: MarkdownBlock[] = []
  let consumed = 0
  let start = 0
  let index = 0
  for (; index < tokens.length; index += 1) {
    const token = tokens[index]
    // marked rewrites a few raws (a list item ending in spaces at the end of input comes back
    // as `-\n`); from the first one that does not line up, the rest becomes one block.
    if (token === undefined || !normalized.startsWith(token.raw, consumed)) break
    consumed += token.raw.length
    const end = originalLength(text, consumed)
    blocks.push({ raw: text.slice(start, end), tokens: [token] })
    start = end
  }
  const rest = tokens.slice(index)
  if (start < text.length || rest.length > 0) {
    const last = blocks.at(-1)
    if (rest.length === 0 && last !== undefined) last.raw += text.slice(start)
    else blocks.push({ raw: text.slice(start), tokens: rest })
  }
  return { blocks, links: tokens.links }
}

/** Splits markdown into its top-level blocks; joining the result gives back `text` exactly. */
export function splitBlocks(text: string): string[] {
  return lexBlocks(text).blocks.map((block) => block.raw)
}

function sameLinks(left: Links, right: Links): boolean {
  const leftNames = Object.keys(left)
  if (leftNames.length !== Object.keys(right).length) return false
  return leftNames.every((name) => {
    const other = right[name]
    return other !== undefined && other.href === left[name]?.href && other.title === left[name]?.title
  })
}

/**
 * Returns `next` with every block whose raw text also appears in `previous` replaced by the
 * previous block object, so a keyed list keeps those blocks' DOM. Reference definitions change
 * how any block lexes, so when they differ nothing is reused.
 */
export function reuseUnchangedBlocks(previous: LexedMarkdown | undefined, next: LexedMarkdown): LexedMarkdown {
  if (previous === undefined || !sameLinks(previous.links, next.links)) return next
  const available = new Map<string, MarkdownBlock[]>()
  for (const block of previous.blocks) {
    const same = available.get(block.raw)
    if (same === undefined) available.set(block.raw, [block])
    else same.push(block)
  }
  const blocks = next.blocks.map((block) => available.get(block.raw)?.shift() ?? block)
  return { blocks, links: next.links }
}
