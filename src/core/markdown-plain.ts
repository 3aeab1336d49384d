/**
 * Markdown as the words a reader sees, for one-line excerpts (search results): no heading hashes, emphasis stars,
 * code fences, backticks, list or quote markers, and links and images as their text. Not a parser: a line-level
 * approximation that never drops a word, which is all an excerpt needs (the message itself is rendered properly).
 */
export function markdownToPlain(markdown: string): string {
  const lines: string[] = []
  for (const line of markdown.split('\n')) {
    // A fence line is syntax only; its language name would read as a word of the text.
    if (/^\s*(```|~~~)/.test(line)) continue
    lines.push(
      line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s*>+\s?/, '')
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '')
        .replace(/^\s*(?:[-*_]\s*){3,}$/, '')
        .replace(/^\s*\|(.*)\|\s*$/, (_, cells: string) => cells.split('|').map((cell) => cell.trim()).join(' '))
        .replace(/^\s*:?-{3,}:?(?:\s+:?-{3,}:?)*\s*$/, ''),
    )
  }
  return lines
    .join('\n')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]+)`+/g, '$1')
    .replace(/(\*\*|__)(?=\S)([^]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?!\w)/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1$2')
    .replace(/~~(?=\S)([^]*?\S)~~/g, '$1')
}
