// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { JSX } from 'solid-js'
import { render } from 'solid-js/web'
import type { AgentSummary, ClientApi, PromptInput, ProviderSummary } from '../../worker/protocol'
import { ProviderStoreContext, type ProviderStore } from '../settings/create-provider-store'
import type { SessionStore } from '../store/create-session-store'
import { makeDraftStore } from '../store/draft-store'
import { SessionStoreContext } from '../store/session-store-context'
import { PromptBox } from './prompt-box'

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

function agent(name: string, mode: AgentSummary['mode'], extra: Partial<AgentSummary> = {}): AgentSummary {
  return {
    name,
    description: `The ${name} agent.`,
    mode,
    hidden: false,
    disabled: false,
    canDisable: true,
    prompt: '',
    defaultPrompt: '',
    permission: [],
    override: {},
    ...extra,
  }
}

const AGENTS = [
  agent('build', 'primary'),
  agent('plan', 'primary', { model: { providerID: 'prv_a', modelID: 'gpt-4o-mini' } }),
  agent('review', 'primary', { disabled: true }),
  agent('general', 'subagent'),
  agent('explore', 'subagent'),
  agent('title', 'primary', { hidden: true }),
]

function mount(draftAgent?: string) {
  const prompts: PromptInput[] = []
  const listAgents = vi.fn(async () => AGENTS)
  const api = {
    listAgents,
    prompt: async (input: PromptInput) => {
      prompts.push(input)
      return { status: 'stored', messageID: 'msg_1' }
    },
    cancel: async () => {},
  } as unknown as ClientApi
  const drafts = makeDraftStore()
  if (draftAgent) drafts.update('ses_1', { agent: draftAgent })
  const sessions = { api, drafts, state: { status: {}, sessions: {} } } as unknown as SessionStore
  const providers = {
    providers: () => [openai],
    loading: () => false,
    error: () => undefined,
    defaultModel: () => ({ providerID: 'prv_a', modelID: 'gpt-4o' }),
  } as unknown as ProviderStore
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(
    (): JSX.Element => (
      <SessionStoreContext.Provider value={sessions}>
        <ProviderStoreContext.Provider value={providers}>
          <PromptBox id="prompt" sessionID="ses_1" />
        </ProviderStoreContext.Provider>
      </SessionStoreContext.Provider>
    ),
    container,
  )
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  const select = (label: string) => {
    const element = [...container.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === label)
    return container.querySelector<HTMLSelectElement>(`#${CSS.escape(element!.htmlFor)}`)!
  }
  return { root: container, prompts, drafts, listAgents, select }
}

describe('prompt box: agent picker', () => {
  it('offers the primary, visible, enabled agents the worker lists', async () => {
    const { select } = mount()
    await settle()
    const picker = select('Agent')
    expect([...picker.options].map((option) => option.value)).toEqual(['build', 'plan'])
    expect(picker.value).toBe('build')
    expect(picker.options[1]!.title).toBe('The plan agent.')
  })

  it("switches to the agent's own model and sends with both", async () => {
    const { root, select, prompts, drafts } = mount()
    await settle()
    expect(select('Model').value).toBe('prv_a/gpt-4o')
    const picker = select('Agent')
    picker.value = 'plan'
    picker.dispatchEvent(new Event('change', { bubbles: true }))
    expect(select('Model').value).toBe('prv_a/gpt-4o-mini')
    expect(drafts.get('ses_1')).toMatchObject({ agent: 'plan', model: { providerID: 'prv_a', modelID: 'gpt-4o-mini' } })
    const text = root.querySelector<HTMLTextAreaElement>('#prompt')!
    text.value = 'plan the parser rewrite'
    text.dispatchEvent(new Event('input', { bubbles: true }))
    root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    await settle()
    expect(prompts).toEqual([
      {
        sessionID: 'ses_1',
        parts: [{ type: 'text', text: 'plan the parser rewrite' }],
        agent: 'plan',
        model: { providerID: 'prv_a', modelID: 'gpt-4o-mini' },
      },
    ])
  })

  it('falls back to build when the draft names an agent that is no longer offered', async () => {
    const { select, drafts } = mount('review')
    await settle()
    expect(select('Agent').value).toBe('build')
    expect(drafts.get('ses_1').agent).toBe('build')
  })

  it('asks the worker again when the picker gets focus', async () => {
    const { select, listAgents } = mount()
    await settle()
    select('Agent').dispatchEvent(new FocusEvent('focus'))
    await settle()
    expect(listAgents).toHaveBeenCalledTimes(2)
  })
})
