import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, OUTPUT_FOLDER } from '../core/paths'

export interface Truncation {
  text: string
  truncated: boolean
  /** How many lines were left out of `text`. */
  omittedLines: number
}

const encoder = new TextEncoder()

/**
 * Keeps the head of an output within both limits, cutting at a line boundary. The caller stores the full text
 * and tells the model where it is.
 */
export function truncateOutput(
  output: string,
  limits = { lines: MAX_OUTPUT_LINES, bytes: MAX_OUTPUT_BYTES },
  keep: 'head' | 'tail' = 'head',
): Truncation {
  const lines = output.split('\n')
  if (lines.length <= limits.lines && encoder.encode(output).length <= limits.bytes) {
    return { text: output, truncated: false, omittedLines: 0 }
  }
  if (keep === 'tail') {
    // A command's verdict (the error, the failing test, the summary) comes last: keep the end instead.
    const reversed = truncateOutput(lines.reverse().join('\n'), limits, 'head')
    const kept = reversed.text.split('\n').reverse()
    return { text: kept.join('\n'), truncated: true, omittedLines: reversed.omittedLines }
  }
  const kept: string[] = []
  let bytes = 0
  for (const line of lines) {
    if (kept.length >= limits.lines) break
    const size = encoder.encode(line).length + 1
    if (bytes + size > limits.bytes) {
      // A single enormous line still shows its beginning.
      if (kept.length === 0) kept.push(line.slice(0, limits.bytes))
      break
    }
    kept.push(line)
    bytes += size
  }
  return { text: kept.join('\n'), truncated: true, omittedLines: lines.length - kept.length }
}

export function truncationNotice(outputID: string, omittedLines: number, keep: 'head' | 'tail' = 'head'): string {
  if (keep === 'tail') {
    return (
      `… ${omittedLines} earlier line${omittedLines === 1 ? '' : 's'} not shown (output truncated). The full output is saved ` +
      `as ${OUTPUT_FOLDER}/${outputID}; read it in pieces (read with offset and limit) or search it (grep).\n\n`
    )
  }
  return (
    `\n\n… ${omittedLines} more line${omittedLines === 1 ? '' : 's'} not shown. The tool call succeeded; its full output ` +
    `is saved as ${OUTPUT_FOLDER}/${outputID}. Read it in pieces (the read tool with offset and limit) or search it ` +
    `(grep) instead of running the command again.`
  )
}
