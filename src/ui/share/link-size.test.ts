import { describe, expect, it } from 'vitest'
import { describeLinkSize } from './link-size'

const sizes = { limit: 524_288, comfortable: 32_768 }

describe('link size', () => {
  it('reads as characters of the limit, with a warning only past what pastes anywhere', () => {
    expect(describeLinkSize({ ...sizes, chars: 9_876 })).toEqual({ level: 'fine', text: '9,876 characters of 524,288' })
    const long = describeLinkSize({ ...sizes, chars: 32_769 })
    expect(long.level).toBe('long')
    expect(long.advice).toContain('may not paste everywhere')
    expect(describeLinkSize({ ...sizes, chars: 32_768 }).level).toBe('fine')
  })

  it('refuses past the limit and points to the file export', () => {
    const over = describeLinkSize({ ...sizes, chars: 524_289 })
    expect(over.level).toBe('over')
    expect(over.advice).toMatch(/^This link is too long/)
    expect(over.advice).toContain('Export the session as a file instead')
    expect(describeLinkSize({ ...sizes, chars: 524_288 }).level).toBe('long')
  })

  it('says when the attachments are what makes the link too long', () => {
    const over = describeLinkSize({ ...sizes, chars: 600_000, attachments: { count: 2, chars: 500_000 } })
    expect(over.level).toBe('over')
    expect(over.advice).toContain('because of the 2 attachments in its prompts')
    expect(over.advice).toContain('Export the session as a file instead')
    // Too long even without them: the usual advice.
    const long = describeLinkSize({ ...sizes, chars: 900_000, attachments: { count: 1, chars: 1_000 } })
    expect(long.advice).not.toContain('attachment')
  })
})
