import { describe, expect, it } from 'vitest'
import type { Tokens } from '../../core/schema'
import { contextUse } from './context-use'

const tokens = (input: number, output: number, read = 0): Tokens => ({ input, output, reasoning: 0, cache: { read, write: 0 }, total: 0 })

describe('how full the context is', () => {
  it('counts the last step against the window, and says when compaction starts', () => {
    const use = contextUse(tokens(30_000, 2_000, 10_000), { context: 128_000, output: 16_000 }, true)!
    expect(use).toMatchObject({ used: 42_000, limit: 128_000, threshold: 112_000, text: '42k of 128k' })
    expect(use.fraction).toBeCloseTo(0.328, 2)
    expect(use.note).toBe('Compacts automatically at 112k (room is kept for a reply): the older turns become a summary, 70k from now.')
  })

  it('says what happens when it is full, and when automatic compaction is off', () => {
    expect(contextUse(tokens(120_000, 0), { context: 128_000, output: 16_000 }, true)!.note).toMatch(/^Full: the next prompt is summarised first/)
    expect(contextUse(tokens(1_000, 0), { context: 128_000, output: 16_000 }, false)!.note).toMatch(/^Automatic compaction is off/)
  })

  it('has nothing to show for a model whose window is unknown', () => {
    expect(contextUse(tokens(1_000, 0), { context: 0, output: 0 }, true)).toBeUndefined()
    expect(contextUse(tokens(1_000, 0), undefined, true)).toBeUndefined()
  })
})
