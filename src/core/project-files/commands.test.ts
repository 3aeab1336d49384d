import { describe, expect, it } from 'vitest'
import { commandInvocation, expandTemplate, parseCommand } from './commands'

describe('project commands', () => {
  it('reads a command file: front matter and template', () => {
    const text = '---\ndescription: Review a file\nagent: plan\n---\nReview $ARGUMENTS carefully.\n'
    expect(parseCommand('review', '.opencode/command/review.md', text)).toEqual({
      type: 'command',
      command: { name: 'review', path: '.opencode/command/review.md', description: 'Review a file', agent: 'plan', template: 'Review $ARGUMENTS carefully.' },
    })
  })

  it('lists a malformed file with what is wrong instead of failing', () => {
    const broken = (text: string) => parseCommand('bad', '.opencode/command/bad.md', text)
    expect(broken('---\ndescription: [unclosed\n---\nHi')).toMatchObject({ type: 'problem', summary: { problem: expect.stringContaining('not valid YAML') } })
    expect(broken('---\ndescription: x\nHi')).toMatchObject({ summary: { problem: expect.stringContaining('no closing ---') } })
    expect(broken('---\nmodel: gpt\n---\nHi')).toMatchObject({ summary: { problem: expect.stringContaining('provider/model') } })
    expect(broken('---\ndescription: x\n---\n')).toMatchObject({ summary: { problem: expect.stringContaining('no template') } })
    expect(broken('---\ndescription: 3\n---\nHi')).toMatchObject({ summary: { problem: '.opencode/command/bad.md: `description` must be text' } })
  })

  it('fills $ARGUMENTS and positions, the last position taking the rest', () => {
    expect(expandTemplate('Review $ARGUMENTS carefully', 'src/a.ts src/b.ts')).toBe('Review src/a.ts src/b.ts carefully')
    expect(expandTemplate('Move $1 to $2', 'a.ts "new folder/b.ts" extra')).toBe('Move a.ts to new folder/b.ts extra')
    expect(expandTemplate('Fix $1 ($1)', '')).toBe('Fix  ()')
    expect(expandTemplate('Run the tests', 'quickly')).toBe('Run the tests\n\nquickly')
  })

  it('knows a command line from a prompt', () => {
    expect(commandInvocation('/review src/a.ts now')).toEqual({ name: 'review', arguments: 'src/a.ts now' })
    expect(commandInvocation('/git/commit')).toEqual({ name: 'git/commit', arguments: '' })
    expect(commandInvocation('not /review')).toBeUndefined()
    expect(commandInvocation('/ review')).toBeUndefined()
  })
})
