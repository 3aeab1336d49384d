import { describe, expect, it } from 'vitest'
import { compactionPrompt, SUMMARY_TEMPLATE } from './prompt'

const HEADINGS = ['## Objective', '## Important Details', '## Work State', '### Completed', '### Active', '### Blocked', '## Next Move', '## Relevant Files']

describe('the summariser prompt', () => {
  it('asks for a new anchored summary with every section, in order', () => {
    const prompt = compactionPrompt()
    expect(prompt).toMatch(/^Write an anchored summary of the conversation above/)
    expect(prompt).not.toContain('<previous-summary>')
    const positions = HEADINGS.map((heading) => prompt.indexOf(heading))
    expect(positions.every((position) => position >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(prompt).toContain('"(none)"')
    expect(prompt).toMatch(/exact file paths/i)
    expect(prompt).toMatch(/Do not mention that this is a summary/)
  })

  it('asks to update the previous summary, given in its own block, when there is one', () => {
    const prompt = compactionPrompt({ previousSummary: '## Objective\nShip the parser\n' })
    expect(prompt).toMatch(/^Update the anchored summary below/)
    expect(prompt).toContain('<previous-summary>\n## Objective\nShip the parser\n</previous-summary>')
    expect(prompt).toMatch(/still true.*stale/s)
    expect(prompt).toContain(SUMMARY_TEMPLATE)
  })

  it('treats a blank previous summary as none', () => {
    expect(compactionPrompt({ previousSummary: '  ' })).toBe(compactionPrompt())
  })
})
