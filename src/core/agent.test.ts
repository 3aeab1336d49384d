import { describe, expect, it } from 'vitest'
import { evaluate } from './permission/evaluate'
import { AGENTS, agentNamed, canDisable, definesAgent, primaryAgents, projectAgents, resolveAgents, subagents, type AgentConfig } from './agent'

const decide = (rules: Parameters<typeof evaluate>[2], permission: string, pattern: string) => evaluate(permission, pattern, rules).action

describe('built-in agents', () => {
  it('offers build and plan to the user, general and explore to the task tool, and hides the rest', () => {
    expect(primaryAgents().map((agent) => agent.name)).toEqual(['build', 'plan'])
    expect(subagents().map((agent) => agent.name)).toEqual(['general', 'explore'])
    expect(Object.values(AGENTS).filter((agent) => agent.hidden).map((agent) => agent.name)).toEqual(['title', 'compaction', 'summary'])
    for (const agent of Object.values(AGENTS)) {
      expect(agent.description.length, agent.name).toBeGreaterThan(10)
      expect(agent.prompt.length, agent.name).toBeGreaterThan(10)
      expect(agent.steps, agent.name).toBeUndefined()
    }
  })

  it('falls back to build for an unknown name', () => {
    expect(agentNamed('plan').name).toBe('plan')
    expect(agentNamed('nobody').name).toBe('build')
    expect(agentNamed('explore', resolveAgents({ explore: { disabled: true } })).name).toBe('build')
  })

  it('lets plan read and write plan files, and nothing else', () => {
    const rules = AGENTS.plan!.permission
    expect(decide(rules, 'read', 'src/index.ts')).toBe('allow')
    expect(decide(rules, 'grep', '*')).toBe('allow')
    expect(decide(rules, 'edit', 'src/index.ts')).toBe('deny')
    expect(decide(rules, 'edit', 'README.md')).toBe('deny')
    expect(decide(rules, 'edit', '.tabcode/plans/refactor.md')).toBe('allow')
    expect(decide(rules, 'edit', '.tabcode/plans/notes.txt')).toBe('deny')
    expect(decide(rules, 'task', 'general')).toBe('deny')
    expect(decide(rules, 'task', 'explore')).toBe('allow')
  })

  it('keeps build free to edit and explore read-only', () => {
    expect(decide(AGENTS.build!.permission, 'edit', 'src/index.ts')).toBe('allow')
    expect(decide(AGENTS.build!.permission, 'read', '.env')).toBe('ask')
    expect(decide(AGENTS.explore!.permission, 'edit', 'src/index.ts')).toBe('deny')
    expect(decide(AGENTS.explore!.permission, 'grep', 'TODO')).toBe('allow')
    expect(decide(AGENTS.general!.permission, 'todowrite', '*')).toBe('deny')
    expect(decide(AGENTS.title!.permission, 'read', 'src/index.ts')).toBe('deny')
  })
})

describe('resolveAgents', () => {
  const model = { providerID: 'prv_a', modelID: 'gpt-4o' }

  it('applies model, prompt, steps and temperature, and appends permission rules after the built-in ones', () => {
    const agents = resolveAgents({
      plan: {
        model,
        prompt: 'Plan in haiku.',
        steps: 5,
        temperature: 0.2,
        permission: [{ permission: 'edit', pattern: 'docs/*', action: 'allow' }],
      },
    })
    const plan = agents.plan!
    expect(plan).toMatchObject({ name: 'plan', mode: 'primary', model, prompt: 'Plan in haiku.', steps: 5, temperature: 0.2 })
    expect(plan.permission.slice(0, -1)).toEqual(AGENTS.plan!.permission)
    expect(plan.permission.at(-1)).toEqual({ permission: 'edit', pattern: 'docs/*', action: 'allow' })
    // The user's rule comes last, so it wins over the built-in deny.
    expect(decide(plan.permission, 'edit', 'docs/guide.md')).toBe('allow')
    expect(decide(plan.permission, 'edit', 'src/index.ts')).toBe('deny')
    expect(agents.build).toEqual(AGENTS.build)
  })

  it('puts global rules between the built-in and the per-agent ones', () => {
    const agents = resolveAgents(
      { build: { permission: [{ permission: 'bash', pattern: 'ls *', action: 'allow' }] } },
      [{ permission: 'bash', pattern: '*', action: 'ask' }],
    )
    expect(agents.build!.permission.slice(-2)).toEqual([
      { permission: 'bash', pattern: '*', action: 'ask' },
      { permission: 'bash', pattern: 'ls *', action: 'allow' },
    ])
    expect(agents.explore!.permission.at(-1)).toEqual({ permission: 'bash', pattern: '*', action: 'ask' })
  })

  it('drops disabled agents, except build and the hidden ones, and ignores unknown names and blank prompts', () => {
    const agents = resolveAgents({
      explore: { disabled: true },
      build: { disabled: true },
      title: { disabled: true },
      mystery: { prompt: 'who am I' },
      general: { prompt: '   ' },
    })
    expect(Object.keys(agents)).toEqual(['build', 'plan', 'general', 'title', 'compaction', 'summary'])
    expect(agents.general!.prompt).toBe(AGENTS.general!.prompt)
    expect(canDisable(AGENTS.build!)).toBe(false)
    expect(canDisable(AGENTS.compaction!)).toBe(false)
    expect(canDisable(AGENTS.plan!)).toBe(true)
  })

  it('never changes the built-in agents', () => {
    const before = structuredClone(AGENTS)
    const agents = resolveAgents({ build: { steps: 3, permission: [{ permission: '*', pattern: '*', action: 'deny' }] } })
    agents.build!.permission.push({ permission: 'read', pattern: '*', action: 'allow' })
    expect(AGENTS).toEqual(before)
  })
})

describe('project and user-defined agents', () => {
  const file = (name: string, config: AgentConfig) => ({ name, path: `.opencode/agent/${name}.md`, config })

  it('adds an agent from a file, mode all unless it says, on the default rules', () => {
    const agents = projectAgents([file('reviewer', { description: 'Reviews', prompt: 'You review.', temperature: 0.2, topP: 0.9, permission: [{ permission: 'edit', pattern: '*', action: 'deny' }] })])
    const reviewer = agents.reviewer!
    expect(reviewer).toMatchObject({ name: 'reviewer', mode: 'all', source: 'project', path: '.opencode/agent/reviewer.md', prompt: 'You review.', temperature: 0.2, topP: 0.9 })
    expect(decide(reviewer.permission, 'edit', 'src/a.ts')).toBe('deny')
    expect(decide(reviewer.permission, 'read', 'src/a.ts')).toBe('allow')
    // The defaults still hold where the file says nothing.
    expect(decide(reviewer.permission, 'read', '.env')).toBe('ask')
    expect(primaryAgents(agents).map((agent) => agent.name)).toEqual(['build', 'plan', 'reviewer'])
    expect(subagents(agents).map((agent) => agent.name)).toEqual(['general', 'explore', 'reviewer'])
  })

  it('changes a built-in agent of the same name field by field, its rules after the built-in ones', () => {
    const agents = projectAgents([file('plan', { steps: 4, permission: [{ permission: 'edit', pattern: 'docs/*', action: 'allow' }] })])
    const plan = agents.plan!
    expect(plan).toMatchObject({ mode: 'primary', prompt: AGENTS.plan!.prompt, description: AGENTS.plan!.description, steps: 4, path: '.opencode/agent/plan.md' })
    expect(plan.source).toBeUndefined()
    expect(decide(plan.permission, 'edit', 'docs/a.md')).toBe('allow')
    expect(decide(plan.permission, 'edit', 'src/a.ts')).toBe('deny')
  })

  it('removes an agent a file disables, except the default and hidden ones', () => {
    const agents = projectAgents([file('explore', { disabled: true }), file('build', { disabled: true }), file('title', { disabled: true })])
    expect(Object.keys(agents)).not.toContain('explore')
    expect(agents.build).toBeDefined()
    expect(agents.title).toBeDefined()
  })

  it('puts the user settings after the file, and adds the agents a user defined', () => {
    const files = [file('reviewer', { prompt: 'You review.', permission: [{ permission: 'edit', pattern: '*', action: 'deny' }] })]
    const agents = resolveAgents(
      {
        reviewer: { permission: [{ permission: 'edit', pattern: '*', action: 'allow' }] },
        helper: { description: 'Helps', mode: 'primary', prompt: 'You help.' },
        // Neither a known agent nor a definition: ignored.
        stray: { steps: 3 },
      },
      [],
      undefined,
      files,
    )
    expect(decide(agents.reviewer!.permission, 'edit', 'src/a.ts')).toBe('allow')
    expect(agents.helper).toMatchObject({ description: 'Helps', mode: 'primary', prompt: 'You help.', source: 'settings' })
    expect(agents.stray).toBeUndefined()
    expect(definesAgent({ mode: 'all', prompt: ' ' })).toBe(false)
  })
})
