import { formatNumber } from '../kit/format/number'

/** The lines of a text file; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r?\n/)
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

export function formatBytes(size: number): string {
  return `${formatNumber(size)} ${size === 1 ? 'byte' : 'bytes'}`
}
