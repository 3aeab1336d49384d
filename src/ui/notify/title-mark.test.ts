import { describe, expect, it } from 'vitest'
import { markedTitle, unmarkedTitle } from './title-mark'

describe('title mark', () => {
  it('counts what ended or waits in front of the title', () => {
    expect(markedTitle('tabcode', 1)).toBe('(1) tabcode')
    expect(markedTitle('tabcode', 3)).toBe('(3) tabcode')
  })

  it('replaces a mark already there instead of stacking another', () => {
    expect(markedTitle('(1) tabcode', 2)).toBe('(2) tabcode')
  })

  it('is gone at zero, and unmarking leaves a plain title as it is', () => {
    expect(markedTitle('(4) tabcode', 0)).toBe('tabcode')
    expect(unmarkedTitle('(12) tabcode')).toBe('tabcode')
    expect(unmarkedTitle('tabcode (1)')).toBe('tabcode (1)')
  })
})
