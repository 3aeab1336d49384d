import { describe, expect, it } from 'vitest'
import { isClosedFence } from './fence'

describe('isClosedFence', () => {
  it('is true once the closing fence has arrived', () => {
    expect(isClosedFence('```ts\nconst a = 1\n```')).toBe(true)
    expect(isClosedFence('```ts\nconst a = 1\n```\n\n')).toBe(true)
    expect(isClosedFence('~~~~\nx\n~~~~~')).toBe(true)
  })

  it('is false while the block is still streaming', () => {
    expect(isClosedFence('```ts')).toBe(false)
    expect(isClosedFence('```ts\nconst a = 1\n')).toBe(false)
    expect(isClosedFence('```ts\nconst a = 1\n``')).toBe(false)
    // A shorter or different fence does not close it.
    expect(isClosedFence('````ts\nx\n```')).toBe(false)
    expect(isClosedFence('```ts\nx\n~~~')).toBe(false)
  })

  it('is false for indented code, which has no fence', () => {
    expect(isClosedFence('    const a = 1\n')).toBe(false)
  })
})
