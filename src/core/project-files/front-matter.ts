import { parse } from 'yaml'

/** A markdown file's YAML front matter (between `---` lines at its top) and the text after it. */
export interface FrontMatter {
  data: Record<string, unknown>
  body: string
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/

/** Splits a file into front matter and body; throws an Error whose message says what is wrong (for the user). */
export function parseFrontMatter(text: string): FrontMatter {
  const source = text.replace(/^\uFEFF/, '')
  const match = FENCE.exec(source)
  if (!match) {
    if (/^---[ \t]*\r?\n/.test(source)) throw new Error('its front matter has no closing --- line')
    return { data: {}, body: source.trim() }
  }
  let data: unknown
  try {
    data = parse(match[1]!)
  } catch (error) {
    const first = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    // The parser counts from the front matter's first line; the user counts from the file's (after the opening ---).
    const position = (error as { linePos?: { line: number }[] }).linePos?.[0]
    const reason = position ? `line ${position.line + 1}: ${first.replace(/ at line \d+, column \d+:?$/, '')}` : first
    throw new Error(`its front matter is not valid YAML: ${reason}`)
  }
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) {
    throw new Error('its front matter must be a list of `key: value` lines')
  }
  return { data: (data ?? {}) as Record<string, unknown>, body: source.slice(match[0].length).trim() }
}
