import { describe, expect, it } from 'vitest'
import { projectCommandSummaries } from './project-command-handlers'
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

describe('project command handlers', () => {
  it('lists every command file, malformed ones with their problem', async () => {
    expect(await projectCommandSummaries(project())).toEqual([
      { name: 'broken', path: '.opencode/command/broken.md', problem: expect.stringContaining('not valid YAML') },
      { name: 'fast', path: '.opencode/command/fast.md', model: 'anthropic/claude-haiku' },
      { name: 'git/commit', path: '.opencode/commands/git/commit.md' },
      { name: 'review', path: '.opencode/command/review.md', description: 'Review code', agent: 'plan' },
    ])
  })
})
