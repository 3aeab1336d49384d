import { describe, expect, it } from 'vitest'
import { AGENTS, BUILD_SWITCH_REMINDER, PLAN_REMINDER } from './agent'
import { environmentBlock, modeReminder, systemPrompt, type Environment } from './system-prompt'

const environment: Environment = {
  providerID: 'prv_abc',
  providerName: 'OpenAI',
  modelID: 'gpt-4o',
  directory: '/workspace',
  backend: 'local',
  backendReason: 'This browser cannot run WebContainer: the page is not cross-origin isolated.',
  now: Date.UTC(2026, 10, 30, 12, 0, 0),
}

describe('systemPrompt', () => {
  it('puts the agent prompt first, then the environment block', () => {
    const prompt = systemPrompt(AGENTS.build!, environment)
    expect(prompt.startsWith(AGENTS.build!.prompt)).toBe(true)
    const block = prompt.slice(prompt.indexOf('<env>'), prompt.indexOf('</env>'))
    expect(block).toContain('Model: gpt-4o (provider OpenAI)')
    expect(block).toContain('Workspace root: /workspace')
    expect(block).toContain('Workspace backend: local (')
    expect(block).toContain('Why this backend: This browser cannot run WebContainer: the page is not cross-origin isolated.')
    expect(block).toContain('Platform: browser')
    expect(block).toContain(`Today's date: ${new Date(environment.now).toDateString()}`)
    expect(prompt).not.toContain('<system-reminder>')
  })

  it('names WebContainer, and falls back to the provider id and the backend as given', () => {
    const webcontainer = environmentBlock({ ...environment, backend: 'webcontainer', backendReason: undefined, providerName: undefined })
    expect(webcontainer).toContain('Model: gpt-4o (provider prv_abc)')
    expect(webcontainer).toContain('Workspace backend: WebContainer (Node.js')
    expect(webcontainer).not.toContain('Why this backend')
    expect(environmentBlock({ ...environment, backend: 'something new' })).toContain('Workspace backend: something new')
  })

  it("adds the project's AGENTS.md after the environment, with where it came from", () => {
    const prompt = systemPrompt(AGENTS.build!, environment, { agentsMd: '  Use tabs.\nRun `npm test` before you finish.\n' })
    expect(prompt).toContain('Instructions from: AGENTS.md\nUse tabs.\nRun `npm test` before you finish.')
    expect(prompt.indexOf('Instructions from')).toBeGreaterThan(prompt.indexOf('</env>'))
    const nested = systemPrompt(AGENTS.build!, environment, { agentsMd: 'x', agentsMdPath: '/workspace/AGENTS.md' })
    expect(nested).toContain('Instructions from: /workspace/AGENTS.md\nx')
    expect(systemPrompt(AGENTS.build!, environment, { agentsMd: '  \n' })).not.toContain('Instructions from')
  })

  it('carries no mode reminder: that goes on the last user message (opencode: SessionReminders, in memory)', () => {
    const prompt = systemPrompt(AGENTS.plan!, environment, { agentsMd: 'Project rules.' })
    expect(prompt.startsWith(AGENTS.plan!.prompt)).toBe(true)
    expect(prompt.endsWith('Project rules.')).toBe(true)
    expect(prompt).not.toContain(PLAN_REMINDER)
    expect(PLAN_REMINDER).toMatch(/^<system-reminder>[\s\S]*read-only[\s\S]*<\/system-reminder>$/)
  })

  it('has a read-only reminder for plan, and tells build it may edit again right after plan, and only then', () => {
    expect(modeReminder('plan', 'build')).toBe(PLAN_REMINDER)
    expect(modeReminder('build', 'plan')).toBe(BUILD_SWITCH_REMINDER)
    expect(modeReminder('build', 'build')).toBeUndefined()
    expect(modeReminder('explore', 'plan')).toBeUndefined()
  })

  it('takes an overridden prompt and plain instruction lists as they are', () => {
    const custom = { ...AGENTS.build!, prompt: 'Only answer in French.' }
    const prompt = systemPrompt(custom, environment, ['Instructions from /workspace/AGENTS.md:\nBe brief.'])
    expect(prompt.startsWith('Only answer in French.\n\nHere is useful information')).toBe(true)
    expect(prompt.endsWith('Instructions from /workspace/AGENTS.md:\nBe brief.')).toBe(true)
  })

  it('is a pure function of its inputs', () => {
    expect(systemPrompt(AGENTS.plan!, environment, { agentsMd: 'a' })).toBe(systemPrompt(AGENTS.plan!, environment, { agentsMd: 'a' }))
  })
})
