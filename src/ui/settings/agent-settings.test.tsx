// @vitest-environment happy-dom
import type { ApprovalsApi } from '../permission/approvals-settings'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRoot, type JSX } from 'solid-js'
import { render } from 'solid-js/web'
import type { AgentOverride, PermissionRule } from '../../core/schema'
import type { AgentFileProblem, AgentSettingsInput, AgentSummary, ProviderSummary, Settings } from '../../core/protocol'
import type { AgentSettingsApi } from './agent-settings'
import { describeSettings, draftOf, editableAgents, overrideOf, pickableAgents, type AgentDraft } from './agent-settings-draft'
import { createProviderStore, type ProviderApi } from './create-provider-store'
import type { ProviderFormApi } from './provider-form'
import SettingsDialog from './settings-dialog'
import type { McpSettingsApi } from './mcp-settings'
import type { GitSettingsApi } from './git-settings'
import type { ModelFactsApi } from './create-model-facts'
import { builtInFacts } from '../../core/provider/built-in-facts'
import { MODEL_FACTS_URL } from '../../core/provider/model-facts'

const BUILT_IN_FACTS = await builtInFacts()

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

const openai: ProviderSummary = {
  id: 'prv_a',
  type: 'openai',
  name: 'OpenAI',
  hasKey: true,
  models: [
    { id: 'gpt-4o', limit: { context: 128_000, output: 16_384 }, cost: { input: 2.5, output: 10 } },
    { id: 'gpt-4o-mini', limit: { context: 128_000, output: 16_384 }, cost: { input: 0.15, output: 0.6 } },
  ],
  time: { created: 1, updated: 1 },
}

const PLAN_RULES: PermissionRule[] = [
  { permission: '*', pattern: '*', action: 'allow' },
  { permission: 'edit', pattern: '*', action: 'deny' },
  { permission: 'edit', pattern: '.tabcode/plans/*.md', action: 'allow' },
]

function agent(name: string, mode: AgentSummary['mode'], extra: Partial<AgentSummary> = {}): AgentSummary {
  return {
    name,
    description: `The ${name} agent.`,
    mode,
    source: 'built-in',
    hidden: false,
    disabled: false,
    canDisable: name !== 'build',
    prompt: `You are ${name}.`,
    defaultPrompt: `You are ${name}.`,
    permission: name === 'plan' ? PLAN_RULES : [{ permission: '*', pattern: '*', action: 'allow' }],
    override: {},
    ...extra,
  }
}

const AGENTS: AgentSummary[] = [
  agent('build', 'primary', { canDisable: false }),
  agent('plan', 'primary'),
  agent('general', 'subagent'),
  agent('explore', 'subagent'),
  agent('title', 'primary', { hidden: true, canDisable: false }),
]

const blank = (draft: Partial<AgentDraft> = {}): AgentDraft => ({
  name: 'plan',
  description: '',
  mode: 'primary',
  prompt: '',
  steps: '',
  temperature: '',
  enabled: true,
  rules: [],
  ...draft,
})

describe('agent form values', () => {
  it('starts from the stored override and saves only what was set', () => {
    const plan = agent('plan', 'primary', { override: { steps: 4, permission: [{ permission: 'bash', pattern: '*', action: 'ask' }] } })
    const draft = draftOf(plan)
    expect(draft).toEqual({ name: 'plan', description: '', mode: 'primary', prompt: '', steps: '4', temperature: '', enabled: true, rules: [{ permission: 'bash', pattern: '*', action: 'ask' }] })
    expect(overrideOf({ ...draft, temperature: '0.5', prompt: 'Be terse.' }, plan)).toEqual({
      ok: true,
      override: { prompt: 'Be terse.', steps: 4, temperature: 0.5, permission: [{ permission: 'bash', pattern: '*', action: 'ask' }] },
    })
    expect(overrideOf(blank({ prompt: '  ', steps: ' ' }), agent('plan', 'primary'))).toEqual({ ok: true, override: {} })
  })

  it('names the wrong field', () => {
    const plan = agent('plan', 'primary')
    expect(overrideOf(blank({ steps: '2.5', temperature: '' }), plan)).toMatchObject({ ok: false, field: 'steps' })
    expect(overrideOf(blank({ steps: '0', temperature: '' }), plan)).toMatchObject({ ok: false, field: 'steps' })
    expect(overrideOf(blank({ steps: '', temperature: '2.5' }), plan)).toMatchObject({ ok: false, field: 'temperature' })
  })

  it('disables only what may be disabled', () => {
    const off = blank({ enabled: false })
    expect(overrideOf(off, agent('plan', 'primary'))).toEqual({ ok: true, override: { disabled: true } })
    expect(overrideOf(off, agent('build', 'primary', { canDisable: false }))).toEqual({ ok: true, override: {} })
  })

  it('offers primary, visible, enabled agents in the prompt box, and all but hidden ones in settings', () => {
    const list = [...AGENTS, agent('both', 'all'), agent('off', 'primary', { disabled: true })]
    expect(pickableAgents(list).map((summary) => summary.name)).toEqual(['build', 'plan', 'both'])
    expect(editableAgents(list).map((summary) => summary.name)).toEqual(['build', 'plan', 'general', 'explore', 'both', 'off'])
  })

  it('sums up an agent for its row', () => {
    expect(describeSettings(agent('build', 'primary'), [openai])).toBe("prompt box's model · no step limit · built-in prompt")
    expect(
      describeSettings(
        agent('general', 'subagent', { model: { providerID: 'prv_a', modelID: 'gpt-4o' }, steps: 1, override: { prompt: 'x' } }),
        [openai],
      ),
    ).toBe('OpenAI / gpt-4o · at most 1 step · custom prompt')
    expect(describeSettings(agent('explore', 'subagent'), [])).toContain("caller's model")
    expect(describeSettings(agent('plan', 'primary', { disabled: true }), [])).toBe('Disabled')
  })
})

function fakeApi() {
  let agents = AGENTS.map((summary) => ({ ...summary }))
  const problems: AgentFileProblem[] = [{ name: 'broken', path: '.opencode/agent/broken.md', problem: '.opencode/agent/broken.md: line 2: `mode` must be primary, subagent or all (not “boss”)' }]
  const saves: AgentSettingsInput[] = []
  const settings: Settings = { retryLimit: 8, workspaceBackend: 'auto', compactionAuto: true, compactionPrune: true, compactionTailTurns: 2, notifications: { enabled: false, turnEnded: true, waiting: true, error: true } }
  const api: ProviderApi & ProviderFormApi & AgentSettingsApi & ApprovalsApi & McpSettingsApi & GitSettingsApi & ModelFactsApi = {
    listMcpServers: async () => [],
    listGitTokenHosts: async () => [],
    modelFacts: async () => ({ facts: BUILT_IN_FACTS, url: MODEL_FACTS_URL }),
    updateModelFacts: async () => {
      throw new Error('not in this test')
    },
    removeGitToken: async () => {},
    saveMcpServer: async () => [],
    removeMcpServer: async () => [],
    mcpStatus: async () => [],
    mcpSignIn: async () => ({ type: 'connected' as const }),
    mcpFinishSignIn: async () => [],
    mcpSignOut: async () => [],
    listProviders: async () => [openai],
    getSettings: async () => settings,
    saveProvider: async () => openai,
    removeProvider: async () => {},
    setSetting: async () => settings,
    testConnection: vi.fn(),
    listRemoteModels: vi.fn(),
    listAgents: vi.fn(async () => agents),
    listAgentFileProblems: vi.fn(async () => problems),
    saveAgentSettings: vi.fn(async (input: AgentSettingsInput) => {
      saves.push(input)
      if (input.override.steps === 999) throw Object.assign(new Error('The step limit is too high for this test.'), { name: 'InputError' })
      agents = agents.map((summary) => (summary.name === input.name ? applied(summary, input.override) : summary))
      return agents
    }),
    listApprovals: async () => [],
    revokeApproval: async () => {},
  }
  return { api, saves }
}

/** What the worker answers after a save, for the fields this test looks at. */
function applied(summary: AgentSummary, override: AgentOverride): AgentSummary {
  const next: AgentSummary = { ...summary, override, prompt: override.prompt ?? summary.defaultPrompt, disabled: !!override.disabled }
  delete next.model
  delete next.steps
  if (override.model) next.model = override.model
  if (override.steps !== undefined) next.steps = override.steps
  return next
}

function open() {
  const fake = fakeApi()
  let root!: HTMLElement
  createRoot((dispose) => {
    const store = createProviderStore(fake.api)
    const container = document.createElement('div')
    document.body.append(container)
    const unmount = render((): JSX.Element => <SettingsDialog store={store} api={fake.api} onClose={() => {}} />, container)
    cleanups.push(() => {
      unmount()
      container.remove()
      dispose()
    })
    root = container
  })
  return { ...fake, root }
}

function byLabel<T extends HTMLElement>(root: HTMLElement, text: string): T {
  const label = [...root.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim().startsWith(text))
  if (!label) throw new Error(`no label ${text}`)
  const control = label.htmlFor ? root.querySelector(`#${CSS.escape(label.htmlFor)}`) : label.querySelector('input, select, textarea')
  if (!control) throw new Error(`no control for ${text}`)
  return control as T
}

function button(root: HTMLElement, name: string): HTMLButtonElement {
  const found = [...root.querySelectorAll('button')].find(
    (candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent?.trim()) === name,
  )
  if (!found) throw new Error(`no button ${name}`)
  return found
}

function change(element: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, value: string, event = 'input') {
  element.value = value
  element.dispatchEvent(new Event(event, { bubbles: true }))
}

const submit = (root: HTMLElement) =>
  root.querySelector('form.agent-form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))

/** Every form control is named by a label, aria-label or aria-labelledby. */
function unnamedControls(root: HTMLElement): string[] {
  return [...root.querySelectorAll<HTMLElement>('input, select, textarea, button')]
    .filter((control) => {
      if (control.getAttribute('aria-label') || control.getAttribute('aria-labelledby')) return false
      if (control.tagName === 'BUTTON') return !control.textContent?.trim()
      if (control.closest('label')) return false
      return !control.id || !root.querySelector(`label[for="${CSS.escape(control.id)}"]`)
    })
    .map((control) => control.outerHTML.slice(0, 80))
}

describe('settings: agents', () => {
  it('lists the agents a user can change, without the hidden ones', async () => {
    const { root } = open()
    await settle()
    const section = [...root.querySelectorAll('section')].find((candidate) => candidate.querySelector('h3')?.textContent === 'Agents')!
    expect(section).toBeTruthy()
    expect([...section.querySelectorAll('.provider-name')].map((name) => name.textContent)).toEqual([
      'build primary',
      'plan primary',
      'general subagent',
      'explore subagent',
    ])
    expect(button(section, 'Edit agent plan')).toBeTruthy()
    expect(section.textContent).not.toContain('title')
  })

  it('edits an agent: model, step limit, prompt, with its own rules shown read-only', async () => {
    const { root, saves } = open()
    await settle()
    button(root, 'Edit agent plan').click()
    expect(root.querySelector('form.agent-form h3')?.textContent).toContain('Agent: plan')
    expect(unnamedControls(root.querySelector('form.agent-form')!)).toEqual([])

    const rows = [...root.querySelectorAll('.agent-rules-table tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))
    expect(rows).toEqual(PLAN_RULES.map((rule) => [rule.permission, rule.pattern, rule.action]))
    expect(root.querySelector('.agent-rules-table input, .agent-rules-table select, .agent-rules-table button')).toBeNull()

    const model = byLabel<HTMLSelectElement>(root, 'Model')
    expect(model.selectedOptions[0]?.textContent).toBe('Same as the prompt box')
    change(model, 'prv_a/gpt-4o-mini', 'change')
    change(byLabel(root, 'Step limit'), '0')
    submit(root)
    expect(root.querySelector('[role="alert"]')?.textContent).toBe('The step limit must be a whole number from 1 to 10000, or empty for no limit.')
    expect(byLabel(root, 'Step limit').getAttribute('aria-invalid')).toBe('true')
    expect(saves).toEqual([])

    change(byLabel(root, 'Step limit'), '12')
    button(root, 'Edit a copy of the built-in prompt').click()
    const prompt = byLabel<HTMLTextAreaElement>(root, 'Prompt')
    expect(prompt.value).toBe('You are plan.')
    change(prompt, 'You are plan. Keep plans under ten steps.')
    submit(root)
    await settle()
    expect(saves).toEqual([
      {
        name: 'plan',
        override: { model: { providerID: 'prv_a', modelID: 'gpt-4o-mini' }, prompt: 'You are plan. Keep plans under ten steps.', steps: 12 },
      },
    ])
    expect(root.querySelector('[role="status"]')?.textContent).toBe('Saved the plan agent.')
    expect(root.textContent).toContain('OpenAI / gpt-4o-mini · at most 12 steps · custom prompt')
  })

  it('shows a refused save in the form, and restores the built-in settings', async () => {
    const { root, saves } = open()
    await settle()
    button(root, 'Edit agent explore').click()
    expect(root.textContent).not.toContain('Restore built-in settings')
    change(byLabel(root, 'Step limit'), '999')
    submit(root)
    await settle()
    expect(root.querySelector('[role="alert"]')?.textContent).toBe('The step limit is too high for this test.')
    expect(root.querySelector('form.agent-form')).toBeTruthy()

    change(byLabel(root, 'Step limit'), '30')
    const enabled = byLabel<HTMLInputElement>(root, 'Enabled')
    enabled.checked = false
    enabled.dispatchEvent(new Event('change', { bubbles: true }))
    submit(root)
    await settle()
    expect(saves.at(-1)).toEqual({ name: 'explore', override: { steps: 30, disabled: true } })
    expect(root.textContent).toContain('Disabled')

    button(root, 'Edit agent explore').click()
    button(root, 'Restore built-in settings').click()
    await settle()
    expect(saves.at(-1)).toEqual({ name: 'explore', override: {} })
    expect(root.querySelector('[role="status"]')?.textContent).toBe('Restored the built-in explore agent.')
  })

  it("adds, changes and removes the user's permission rules, saved after the agent's", async () => {
    const { root, saves } = open()
    await settle()
    button(root, 'Edit agent plan').click()
    button(root, 'Add rule').click()
    button(root, 'Add rule').click()
    submit(root)
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('Each rule needs a permission')
    expect(saves).toEqual([])
    const control = <T extends HTMLElement>(name: string) => root.querySelector<T>(`[aria-label="${name}"]`)!
    change(control<HTMLInputElement>('Rule 1 permission'), 'bash')
    change(control<HTMLSelectElement>('Rule 1 action'), 'deny', 'change')
    change(control<HTMLInputElement>('Rule 2 permission'), 'edit')
    change(control<HTMLInputElement>('Rule 2 pattern'), 'docs/*')
    change(control<HTMLSelectElement>('Rule 2 action'), 'allow', 'change')
    button(root, 'Remove rule 1').click()
    expect(control('Rule 2 permission')).toBeNull()
    expect(unnamedControls(root.querySelector('form.agent-form')!)).toEqual([])
    submit(root)
    await settle()
    expect(saves).toEqual([{ name: 'plan', override: { permission: [{ permission: 'edit', pattern: 'docs/*', action: 'allow' }] } }])
  })

  it("lists the agent files that cannot be used, and adds an agent of the user's own", async () => {
    const { root, saves } = open()
    await settle()
    expect(root.querySelector('.agent-problems')?.textContent).toContain('.opencode/agent/broken.md: line 2: `mode` must be primary, subagent or all')
    button(root, 'Add agent').click()
    expect(root.querySelector('form.agent-form h3')?.textContent).toContain('New agent')
    expect(unnamedControls(root.querySelector('form.agent-form')!)).toEqual([])
    change(byLabel(root, 'Name'), 'bad name')
    submit(root)
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('The name is letters')
    change(byLabel(root, 'Name'), 'reviewer')
    submit(root)
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('needs a prompt')
    change(byLabel(root, 'Description'), 'Reviews changes')
    change(byLabel<HTMLSelectElement>(root, 'Mode'), 'all', 'change')
    change(byLabel(root, 'Prompt'), 'You review code.')
    submit(root)
    await settle()
    expect(saves).toEqual([{ name: 'reviewer', override: { description: 'Reviews changes', mode: 'all', prompt: 'You review code.' } }])
  })

  it('offers no switch for the default agent, and goes back on Cancel', async () => {
    const { root, saves } = open()
    await settle()
    button(root, 'Edit agent build').click()
    expect(() => byLabel(root, 'Enabled')).toThrow()
    button(root, 'Cancel').click()
    expect(root.querySelector('form.agent-form')).toBeNull()
    expect(button(root, 'Edit agent build')).toBeTruthy()
    expect(saves).toEqual([])
  })
})
