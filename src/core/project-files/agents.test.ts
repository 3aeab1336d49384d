import { describe, expect, it } from 'vitest'
import { agentFileRules, agentName, parseAgentFile, toolRules } from './agents'

const parse = (text: string, name = 'reviewer') => parseAgentFile(name, `.opencode/agent/${name}.md`, text)

describe('project agent files', () => {
  it('reads opencode front matter and takes the body as the prompt', () => {
    const text = [
      '---',
      'description: Reviews code',
      'mode: subagent',
      'model: openrouter/anthropic/claude-sonnet-4',
      'temperature: 0.2',
      'top_p: 0.9',
      'steps: 5',
      'tools:',
      '  write: false',
      '  bash: true',
      'permission:',
      '  edit: deny',
      '  bash:',
      '    "git *": allow',
      '    "*": ask',
      'color: "#ff0000"',
      '---',
      'You review code.',
      '',
    ].join('\n')
    expect(parse(text)).toEqual({
      type: 'agent',
      agent: {
        name: 'reviewer',
        path: '.opencode/agent/reviewer.md',
        config: {
          description: 'Reviews code',
          mode: 'subagent',
          // Split at the first slash: the model id keeps its own.
          model: { providerID: 'openrouter', modelID: 'anthropic/claude-sonnet-4' },
          temperature: 0.2,
          topP: 0.9,
          steps: 5,
          prompt: 'You review code.',
          // The legacy tools map first (write stands for edit), then the permission rules in the author's order.
          permission: [
            { permission: 'edit', pattern: '*', action: 'deny' },
            { permission: 'bash', pattern: '*', action: 'allow' },
            { permission: 'edit', pattern: '*', action: 'deny' },
            { permission: 'bash', pattern: 'git *', action: 'allow' },
            { permission: 'bash', pattern: '*', action: 'ask' },
          ],
        },
      },
    })
  })

  it('accepts a file with no front matter, one action for everything, and the older maxSteps', () => {
    expect(parse('Just a prompt.')).toMatchObject({ type: 'agent', agent: { config: { prompt: 'Just a prompt.' } } })
    expect(parse('---\npermission: deny\nmaxSteps: 3\ndisable: true\n---\n')).toMatchObject({
      agent: { config: { steps: 3, disabled: true, permission: [{ permission: '*', pattern: '*', action: 'deny' }] } },
    })
  })

  it('says what is wrong with a malformed file, with the line, instead of failing', () => {
    const problem = (text: string) => {
      const parsed = parse(text)
      return parsed.type === 'problem' ? parsed.problem.problem : undefined
    }
    expect(problem('---\ndescription: x\nmode: boss\n---\nHi')).toBe('.opencode/agent/reviewer.md: line 3: `mode` must be primary, subagent or all (not “boss”)')
    expect(problem('---\ntemperature: hot\n---\nHi')).toBe('.opencode/agent/reviewer.md: line 2: `temperature` must be a number from 0 to 2')
    expect(problem('---\nmodel: gpt-4o\n---\nHi')).toContain('`model` must be provider/model')
    expect(problem('---\ntools:\n  bash: maybe\n---\nHi')).toContain('line 2: `tools` must be a map of tool name to true or false')
    expect(problem('---\npermission:\n  edit: never\n---\nHi')).toContain('`permission` must be allow, ask or deny')
    expect(problem('---\ndescription: [oops\n---\nHi')).toMatch(/^\.opencode\/agent\/reviewer\.md: its front matter is not valid YAML: line 2: Flow sequence/)
    expect(problem('---\ndescription: x\nHi')).toContain('no closing ---')
    expect(problem('---\n- a\n- b\n---\nHi')).toContain('list of `key: value` lines')
  })

  it('names an agent after its file, nested folders included', () => {
    expect(agentName('review.md')).toBe('review')
    expect(agentName('team/review.MD')).toBe('team/review')
  })

  it('turns the tools map into rules, the edit tools under edit', () => {
    expect(toolRules({ multiedit: true, webfetch: false })).toEqual([
      { permission: 'edit', pattern: '*', action: 'allow' },
      { permission: 'webfetch', pattern: '*', action: 'deny' },
    ])
  })

  it('reads a file’s rules even when its other keys are wrong, and says when they cannot be told', () => {
    const rules = [
      { permission: 'edit', pattern: '*', action: 'allow' },
      { permission: '*', pattern: '*', action: 'allow' },
    ]
    expect(agentFileRules('---\nmode: primari\ntools:\n  write: true\npermission:\n  "*": allow\n---\nHi')).toEqual(rules)
    expect(agentFileRules('Only a prompt.')).toEqual([])
    expect(agentFileRules('---\npermission: [allow\n---\n')).toBeUndefined()
    expect(agentFileRules('---\npermission:\n  "*": allow\n')).toBeUndefined()
    expect(agentFileRules('---\npermission:\n  "*": yes\n---\n')).toBeUndefined()
    expect(agentFileRules('---\ntools: true\n---\n')).toBeUndefined()
  })
})
