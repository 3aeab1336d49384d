import { describe, expect, it } from 'vitest'
import type { AgentSummary } from '../../core/protocol'
import { commandOptions, mentionOptions } from './composer-options'

describe('commandOptions', () => {
  it('lists built-ins first, then project commands; a built-in shadows a project command and says so', () => {
    const options = commandOptions('', [
      { name: 'review', description: 'Review a file', path: '.opencode/command/review.md' },
      { name: 'compact', path: '.opencode/command/compact.md' },
    ])
    expect(options[0]?.label).toBe('/new')
    expect(options.at(-1)).toMatchObject({ label: '/review', insert: '/review', detail: 'Review a file' })
    expect(options.filter((option) => option.label === '/compact')).toHaveLength(1)
    expect(options.find((option) => option.label === '/compact')?.detail).toMatch(/project's \/compact is hidden/)
  })

  it('names the agent and model a project command runs as, before it is sent', () => {
    const [review, plain] = commandOptions('', [
      { name: 'review', description: 'Review a file', agent: 'yolo', model: 'openai/gpt-5', path: '.opencode/command/review.md' },
      { name: 'rewrite', agent: 'plan', path: '.opencode/command/rewrite.md' },
    ]).slice(-2)
    expect(review?.detail).toBe('Review a file · runs as agent yolo, model openai/gpt-5')
    expect(plain?.detail).toBe('runs as agent plan')
  })

  it('keeps names holding the query, those starting with it first, and shows a broken file disabled with its reason', () => {
    expect(commandOptions('re', []).map((option) => option.label)).toEqual(['/redo', '/share'])
    const [broken] = commandOptions('bad', [{ name: 'bad', path: 'bad.md', problem: 'front matter: not YAML' }])
    expect(broken?.disabledReason).toBe('front matter: not YAML')
  })
})

describe('mentionOptions', () => {
  const agent = (name: string, mode: AgentSummary['mode'], hidden = false) => ({ name, mode, hidden, disabled: false, description: name }) as AgentSummary
  it('offers subagents (not primary or hidden ones) before files and folders', () => {
    const options = mentionOptions('', [agent('build', 'primary'), agent('general', 'subagent'), agent('title', 'primary', true)], [
      { type: 'directory', path: 'src/' },
    ])
    expect(options.map((option) => option.insert)).toEqual(['@general', '@src/'])
  })
})
