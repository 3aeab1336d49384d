import { describe, expect, it } from 'vitest'
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from '../core/paths'
import { truncateOutput, truncationNotice } from './truncate'

describe('output truncation', () => {
  it('leaves short output alone', () => {
    expect(truncateOutput('a\nb')).toEqual({ text: 'a\nb', truncated: false, omittedLines: 0 })
  })

  it('keeps the first 2,000 lines', () => {
    const output = Array.from({ length: 2_500 }, (_, index) => `line ${index}`).join('\n')
    const result = truncateOutput(output)
    expect(result.truncated).toBe(true)
    expect(result.text.split('\n')).toHaveLength(MAX_OUTPUT_LINES)
    expect(result.omittedLines).toBe(500)
  })

  it('keeps at most 50 KB, cut at a line boundary, counting bytes not characters', () => {
    const line = 'é'.repeat(100)
    const output = Array.from({ length: 1_000 }, () => line).join('\n')
    const result = truncateOutput(output)
    expect(new TextEncoder().encode(result.text).length).toBeLessThanOrEqual(MAX_OUTPUT_BYTES)
    expect(result.text.split('\n').every((kept) => kept === line)).toBe(true)
    expect(result.omittedLines).toBeGreaterThan(700)
  })

  it('shows the start of one giant line', () => {
    const result = truncateOutput('x'.repeat(200_000))
    expect(result.text.length).toBe(MAX_OUTPUT_BYTES)
    expect(result.truncated).toBe(true)
  })

  it('tells the model where the full output is and how to read it', () => {
    expect(truncationNotice('tool_1', 500)).toMatch(/500 more lines not shown.*\/\.tabcode\/tool-output\/tool_1.*offset and limit/s)
  })
})
