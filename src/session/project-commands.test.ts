import { describe, expect, it } from 'vitest'
import { expandProjectCommand } from './project-commands'
import { makeToolContext } from '../tools/testing/tool-context'

const project = () =>
  makeToolContext({
    seed: {
      '.opencode/command/review.md': '---\ndescription: Review code\nagent: plan\n---\nReview $ARGUMENTS carefully.',
      '.opencode/commands/git/commit.md': 'Write a commit message for $1',
      '.opencode/command/broken.md': '---\ndescription: [oops\n---\nHi',
      '.opencode/command/notes.txt': 'not a command',
      '.opencode/command/fast.md': '---\nmodel: anthropic/claude-haiku\n---\nQuickly: $ARGUMENTS',
    },
  }).workspace

describe('project commands', () => {
  it('turns /name arguments into the template with its agent, and leaves other text alone', async () => {
    const workspace = project()
    expect(await expandProjectCommand(workspace, '/review src/a.ts')).toEqual({ name: 'review', text: 'Review src/a.ts carefully.', agent: 'plan' })
    expect(await expandProjectCommand(workspace, '/git/commit the parser')).toEqual({ name: 'git/commit', text: 'Write a commit message for the parser' })
    expect(await expandProjectCommand(workspace, '/fast fix it')).toEqual({ name: 'fast', text: 'Quickly: fix it', model: 'anthropic/claude-haiku' })
    expect(await expandProjectCommand(workspace, '/unknown thing')).toBeUndefined()
    expect(await expandProjectCommand(workspace, 'hello /review')).toBeUndefined()
    await expect(expandProjectCommand(workspace, '/broken')).rejects.toMatchObject({ name: 'InputError', message: expect.stringContaining('broken.md') })
  })
})
