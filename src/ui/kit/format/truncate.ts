export interface Truncated {
  text: string
  truncated: boolean
  totalLines: number
}

/**
 * Cuts long tool output to its head so a card stays a card; whichever limit (lines or characters) bites first
 * wins, and the cut never splits a line unless one line alone is over the character limit.
 */
export function truncateText(text: string, limits: { maxLines: number; maxChars: number }): Truncated {
  const lines = text.split('\n')
  const totalLines = lines.length
  if (totalLines <= limits.maxLines && text.length <= limits.maxChars) return { text, truncated: false, totalLines }
  let kept = ''
  for (let index = 0; index < Math.min(totalLines, limits.maxLines); index++) {
    const line = lines[index]!
    const next = index === 0 ? line : `${kept}\n${line}`
    if (next.length > limits.maxChars) {
      if (index === 0) kept = line.slice(0, limits.maxChars)
      break
    }
    kept = next
  }
  return { text: kept, truncated: true, totalLines }
}

/** Values for an input card: JSON, two-space indented; anything JSON can't say falls back to String(). */
export function formatJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}
