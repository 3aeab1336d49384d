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

/**
 * Characters the lexing functions below hand to marked and walk to map offsets: a streaming reply must cost about
 * its own length in these, not its length squared. Tests read it; counting costs an addition per call.
 */
export const lexWork = { lexed: 0, mapped: 0 }

// marked turns `\r\n` and `\r` into `\n` before lexing, so token `raw`s are slices of that normalized text. This
// walks `normalizedLength` characters of it on from `start` in the original and returns where they end there; the
// caller carries that end on to the next token, so the whole text is walked once (from 0 each time was quadratic).
function originalEnd(text: string, start: number, normalizedLength: number): number {
  let original = start
  for (let normalized = 0; normalized < normalizedLength && original < text.length; normalized += 1) {
    original += text[original] === '\r' && text[original + 1] === '\n' ? 2 : 1
  }
  lexWork.mapped += original - start
  return original
}

/**
 * Lexes `text` into top-level blocks whose `raw`s concatenate back to `text` exactly, so a
 * streaming renderer can keep every finished block and re-parse only the last, open one.
 */
export function lexBlocks(text: string): LexedMarkdown {
  lexWork.lexed += text.length
  const tokens = lex(text)
  // Without a `\r` the normalized text is the text itself and offsets need no mapping.
  const carriageReturns = text.includes('\r')
  const normalized = carriageReturns ? text.replace(/\r\n?/g, '\n') : text
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
    const end = carriageReturns ? originalEnd(text, start, token.raw.length) : consumed
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

/** A lex result that says how many of its leading blocks are, object for object, those of the result before it. */
export interface RelexedMarkdown extends LexedMarkdown {
  kept: number
}

/**
 * Returns `next` with every block whose raw text also appears in `previous` replaced by the
 * previous block object, so a keyed list keeps those blocks' DOM. Reference definitions change
 * how any block lexes, so when they differ nothing is reused. A leading run of blocks that are
 * already the previous objects is skipped, from `kept` on (what lexGrowingText says it kept),
 * so a streaming frame costs the length of the re-lexed tail, not of the whole reply.
 */
export function reuseUnchangedBlocks(previous: LexedMarkdown | undefined, next: LexedMarkdown, kept = 0): RelexedMarkdown {
  if (previous === undefined || !sameLinks(previous.links, next.links)) return { ...next, kept: 0 }
  while (kept < next.blocks.length && kept < previous.blocks.length && next.blocks[kept] === previous.blocks[kept]) kept += 1
  if (kept === next.blocks.length) return { ...next, kept }
  const available = new Map<string, MarkdownBlock[]>()
  for (const block of previous.blocks.slice(kept)) {
    const same = available.get(block.raw)
    if (same === undefined) available.set(block.raw, [block])
    else same.push(block)
  }
  const tail = next.blocks.slice(kept).map((block) => available.get(block.raw)?.shift() ?? block)
  return { blocks: kept === 0 ? tail : [...next.blocks.slice(0, kept), ...tail], links: next.links, kept }
}

/** The text a lexed result came from, so the next lex can tell whether it only grew. */
export interface LexedText {
  text: string
  lexed: LexedMarkdown
}

/**
 * Top-level blocks that nothing appended after them can change: a blank line follows them and they cannot continue
 * across one (a list, indented code or an HTML block can, so they are never a restart point).
 */
function closedBefore(blocks: readonly MarkdownBlock[], index: number): boolean {
  const space = blocks[index - 1]
  if (space?.tokens.length !== 1 || space.tokens[0]!.type !== 'space') return false
  if (index === 1) return true
  const before = blocks[index - 2]
  if (before?.tokens.length !== 1) return false
  const token = before.tokens[0]!
  switch (token.type) {
    case 'paragraph':
    case 'heading':
    case 'hr':
    case 'blockquote':
    case 'table':
      return true
    case 'code':
      return /^ {0,3}(```|~~~)/.test(token.raw)
    default:
      return false
  }
}

/**
 * `lexBlocks` for text that streams in. When the text only grew, the blocks up to the last point nothing appended
 * can reach (a blank line after a closed block) are kept as they are (`kept` of them) and only the rest is lexed
 * again, so a long reply costs about its own size in lexing, not its size squared. Anything else (an edit, reference
 * definitions, which reach across the whole text) falls back to lexing the whole text. A `\r\n` never straddles the
 * restart point: block boundaries fall between whole line endings, and a block follows the blank line there.
 */
export function lexGrowingText(previous: LexedText | undefined, text: string): RelexedMarkdown {
  const full = () => ({ ...lexBlocks(text), kept: 0 })
  if (previous === undefined || !text.startsWith(previous.text) || Object.keys(previous.lexed.links).length > 0) {
    return full()
  }
  const blocks = previous.lexed.blocks
  let offset = previous.text.length
  let restart = blocks.length
  // Walk back from the end to the last restart point, summing the lengths of the blocks after it.
  for (let index = blocks.length - 1; index >= 1; index -= 1) {
    offset -= blocks[index]!.raw.length
    if (closedBefore(blocks, index)) {
      restart = index
      break
    }
  }
  if (restart === blocks.length) return full()
  const tail = lexBlocks(text.slice(offset))
  if (Object.keys(tail.links).length > 0) return full()
  return { blocks: [...blocks.slice(0, restart), ...tail.blocks], links: tail.links, kept: restart }
}
