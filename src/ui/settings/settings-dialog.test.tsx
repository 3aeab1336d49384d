// @vitest-environment happy-dom
import type { ApprovalsApi } from '../permission/approvals-settings'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRoot, createSignal, type JSX } from 'solid-js'
import { render } from 'solid-js/web'
import type { ModelReference, Setting } from '../../core/schema'
import type { ConnectionResult, ProviderInput, ProviderSummary, RemoteModel, Settings } from '../../core/protocol'
import { createProviderStore, type ProviderApi } from './create-provider-store'
import { modelOptionGroups, ModelPicker } from './model-picker'
import type { AgentSettingsApi } from './agent-settings'
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

function mount(view: () => JSX.Element): HTMLElement {
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(view, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  return container
}

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
const local: ProviderSummary = {
  id: 'prv_b',
  type: 'openai-compatible',
  name: 'Ollama',
  baseURL: 'http://localhost:11434/v1',
  hasKey: false,
  models: [{ id: 'llama3.2', limit: { context: 131_072, output: 8_192 }, cost: { input: 0, output: 0 } }],
  time: { created: 2, updated: 2 },
}

/** An in-memory worker: enough of the RPC surface for the settings UI. */
function fakeApi(initial: ProviderSummary[] = []) {
  let providers = [...initial]
  let settings: Settings = { retryLimit: 8, workspaceBackend: 'auto', compactionAuto: true, compactionPrune: true, compactionTailTurns: 2, notifications: { enabled: false, turnEnded: true, waiting: true, error: true } }
  const saved: ProviderInput[] = []
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
    listProviders: async () => providers,
    getSettings: async () => settings,
    saveProvider: async (input) => {
      saved.push(input)
      const summary: ProviderSummary = {
        id: input.id ?? `prv_${providers.length + 1}`,
        type: input.type,
        name: input.name,
        ...(input.baseURL ? { baseURL: input.baseURL } : {}),
        hasKey: !!input.apiKey,
        models: input.models,
        time: { created: 1, updated: 1 },
      }
      providers = [...providers.filter((provider) => provider.id !== summary.id), summary]
      return summary
    },
    removeProvider: async (providerID) => {
      providers = providers.filter((provider) => provider.id !== providerID)
    },
    setSetting: async (setting: Setting) => {
      if (setting.key === 'retry.limit') settings = { ...settings, retryLimit: setting.value }
      if (setting.key === 'model.default') settings = { ...settings, defaultModel: setting.value }
      if (setting.key === 'model.small') settings = { ...settings, smallModel: setting.value }
      if (setting.key === 'compaction.auto') settings = { ...settings, compactionAuto: setting.value }
      if (setting.key === 'compaction.prune') settings = { ...settings, compactionPrune: setting.value }
      return settings
    },
    testConnection: vi.fn(async (): Promise<ConnectionResult> => ({
      status: 'ok',
      models: ['llama3.2:latest', 'my-finetune'],
      listed: [{ id: 'llama3.2:latest' }, { id: 'my-finetune' }],
      latencyMs: 12,
    })),
    listRemoteModels: vi.fn(async (): Promise<RemoteModel[]> => []),
    listAgents: async () => [],
    listAgentFileProblems: async () => [],
    saveAgentSettings: async () => [],
    listApprovals: async () => [],
    revokeApproval: async () => {},
  }
  return { api, saved, settings: () => settings }
}

function select(element: HTMLSelectElement, value: string) {
  element.value = value
  element.dispatchEvent(new Event('change', { bubbles: true }))
}

function type(element: HTMLInputElement, value: string) {
  element.value = value
  element.dispatchEvent(new Event('input', { bubbles: true }))
}

function byLabel<T extends HTMLElement>(root: HTMLElement, text: string): T {
  const label = [...root.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim().startsWith(text))
  if (!label) throw new Error(`no label ${text}`)
  const control = label.htmlFor ? root.querySelector(`#${CSS.escape(label.htmlFor)}`) : label.querySelector('input, select')
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

describe('model picker', () => {
  it('groups models by provider with `provider / model` labels and the price per million tokens', () => {
    expect(modelOptionGroups([openai, local, { ...local, id: 'prv_empty', models: [] }])).toEqual([
      {
        providerID: 'prv_a',
        label: 'OpenAI',
        options: [
          { key: 'prv_a/gpt-4o', label: 'OpenAI / gpt-4o', reference: { providerID: 'prv_a', modelID: 'gpt-4o' }, price: '$2.5 / $10 per M' },
          { key: 'prv_a/gpt-4o-mini', label: 'OpenAI / gpt-4o-mini', reference: { providerID: 'prv_a', modelID: 'gpt-4o-mini' }, price: '$0.15 / $0.6 per M' },
        ],
      },
      { providerID: 'prv_b', label: 'Ollama', options: [{ key: 'prv_b/llama3.2', label: 'Ollama / llama3.2', reference: { providerID: 'prv_b', modelID: 'llama3.2' } }] },
    ])
  })

  it('is a select labelled "Model" that reports the chosen reference', () => {
    const chosen: ModelReference[] = []
    const [value, setValue] = createSignal<ModelReference | undefined>({ providerID: 'prv_a', modelID: 'gpt-4o' })
    const root = mount(() => (
      <ModelPicker value={value()} providers={[openai, local]} onChange={(reference) => (chosen.push(reference), setValue(reference))} />
    ))
    const picker = byLabel<HTMLSelectElement>(root, 'Model')
    expect(picker.value).toBe('prv_a/gpt-4o')
    expect([...picker.querySelectorAll('optgroup')].map((group) => group.label)).toEqual(['OpenAI', 'Ollama'])
    // Each model with its price per million tokens beside it; a model without one says nothing rather than "$0".
    expect([...picker.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'OpenAI / gpt-4o · $2.5 / $10 per M',
      'OpenAI / gpt-4o-mini · $0.15 / $0.6 per M',
      'Ollama / llama3.2',
    ])
    select(picker, 'prv_b/llama3.2')
    expect(chosen).toEqual([{ providerID: 'prv_b', modelID: 'llama3.2' }])
  })

  it('gets a filter field once there are many models, which narrows the list but keeps the chosen one', () => {
    const many = { ...openai, models: Array.from({ length: 14 }, (_, index) => ({ ...openai.models[0]!, id: index % 2 ? `gpt-mini-${index}` : `claude-${index}` })) }
    const root = mount(() => <ModelPicker value={{ providerID: openai.id, modelID: 'claude-0' }} providers={[many]} onChange={() => {}} />)
    const filter = root.querySelector<HTMLInputElement>('input[type="search"]')!
    expect(filter.getAttribute('aria-label')).toBe('Filter model list')
    const options = () => [...root.querySelectorAll('select option')].map((option) => option.textContent)
    expect(options()).toHaveLength(14)
    filter.value = 'MINI 1'
    filter.dispatchEvent(new Event('input', { bubbles: true }))
    expect(options()).toEqual(['OpenAI / claude-0', 'OpenAI / gpt-mini-1', 'OpenAI / gpt-mini-11', 'OpenAI / gpt-mini-13'].map((label) => `${label} · $2.5 / $10 per M`))
    // Two models get no filter: nothing to search.
    const few = mount(() => <ModelPicker providers={[openai]} onChange={() => {}} />)
    expect(few.querySelector('input[type="search"]')).toBeNull()
  })

  it('keeps a removed model visible as unavailable, and is disabled with nothing configured', () => {
    const root = mount(() => (
      <>
        <ModelPicker value={{ providerID: 'prv_gone', modelID: 'old-model' }} providers={[openai]} onChange={() => {}} />
        <ModelPicker providers={[]} onChange={() => {}} />
      </>
    ))
    const [stale, empty] = [...root.querySelectorAll('select')]
    expect(stale!.selectedOptions[0]?.textContent).toBe('old-model (unavailable)')
    expect(empty!.disabled).toBe(true)
    expect(empty!.textContent).toContain('No models yet')
  })
})

describe('createProviderStore', () => {
  it('loads providers and settings, falls back to the first model, and refreshes after writes', async () => {
    const { api } = fakeApi([openai])
    await createRoot(async (dispose) => {
      const store = createProviderStore(api)
      expect(store.loading()).toBe(true)
      await settle()
      expect(store.loading()).toBe(false)
      expect(store.providers()).toEqual([openai])
      expect(store.defaultModel()).toEqual({ providerID: 'prv_a', modelID: 'gpt-4o' })
      await store.save({ type: 'openai-compatible', name: 'Ollama', baseURL: 'http://localhost:11434/v1', models: local.models })
      expect(store.providers().map((provider) => provider.name)).toEqual(['OpenAI', 'Ollama'])
      await store.setSetting({ key: 'model.default', value: { providerID: 'prv_a', modelID: 'gpt-4o-mini' } })
      expect(store.defaultModel()).toEqual({ providerID: 'prv_a', modelID: 'gpt-4o-mini' })
      await store.remove('prv_a')
      expect(store.defaultModel()).toEqual({ providerID: 'prv_2', modelID: 'llama3.2' })
      dispose()
    })
  })

  it('words a failed load for the user', async () => {
    const { api } = fakeApi()
    api.listProviders = async () => {
      throw new Error('The storage is not open yet')
    }
    await createRoot(async (dispose) => {
      const store = createProviderStore(api)
      await settle()
      expect(store.error()).toBe("Couldn't load providers: The storage is not open yet")
      dispose()
    })
  })
})

describe('settings dialog', () => {
  function open(initial: ProviderSummary[] = []) {
    const fake = fakeApi(initial)
    const onClose = vi.fn()
    let root!: HTMLElement
    createRoot((dispose) => {
      const store = createProviderStore(fake.api)
      root = mount(() => <SettingsDialog store={store} api={fake.api} onClose={onClose} />)
      cleanups.push(dispose)
    })
    return { ...fake, root, onClose }
  }

  it('adds a local provider: preset, load models, limits for the unknown one, save', async () => {
    const { root, api, saved } = open()
    await settle()
    expect(root.querySelector('h2')?.textContent).toBe('Settings')
    expect(root.textContent).toContain('No providers yet.')
    button(root, 'Add provider').click()
    select(byLabel(root, 'Provider type'), 'openai-compatible')
    select(byLabel(root, 'Endpoint preset'), 'ollama')
    expect(byLabel<HTMLInputElement>(root, 'Base URL').value).toBe('http://localhost:11434/v1')
    expect(byLabel<HTMLInputElement>(root, 'Name').value).toBe('Ollama')
    button(root, 'Load models').click()
    await settle()
    expect(api.testConnection).toHaveBeenCalledWith({ type: 'openai-compatible', name: 'Ollama', baseURL: 'http://localhost:11434/v1', models: [] })
    expect(root.querySelector('[role="status"]')?.textContent).toBe('2 models available.')
    const boxes = [...root.querySelectorAll<HTMLInputElement>('.remote-models input[type="checkbox"]')]
    for (const box of boxes) {
      box.checked = true
      box.dispatchEvent(new Event('change', { bubbles: true }))
    }
    root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    await settle()
    expect(root.querySelector('[role="alert"]')?.textContent).toBe(
      '“my-finetune” is not in the built-in model table: enter its context and output limits before saving.',
    )
    expect(saved).toEqual([])
    type(byLabel(root, 'Context limit for my-finetune'), '32k')
    type(byLabel(root, 'Output limit for my-finetune'), '4096')
    root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    await settle()
    await settle()
    expect(saved).toEqual([
      {
        type: 'openai-compatible',
        name: 'Ollama',
        baseURL: 'http://localhost:11434/v1',
        models: [
          { id: 'llama3.2:latest', limit: { context: 131_072, output: 8_192 }, cost: { input: 0, output: 0 }, tools: true },
          { id: 'my-finetune', limit: { context: 32_000, output: 4_096 }, cost: { input: 0, output: 0 } },
        ],
      },
    ])
    expect(root.querySelector('[role="status"]')?.textContent).toBe('Saved Ollama.')
    expect(button(root, 'Edit Ollama')).toBeTruthy()
  })

  it('shows a failed connection test as an alert', async () => {
    const { root, api } = open([local])
    await settle()
    vi.mocked(api.testConnection).mockResolvedValueOnce({ status: 'failed', cause: 'cors', message: 'localhost:11434 is running but refused requests from this page (CORS).' })
    button(root, 'Edit Ollama').click()
    button(root, 'Test connection').click()
    await settle()
    expect(api.testConnection).toHaveBeenCalledWith(
      { id: 'prv_b', type: 'openai-compatible', name: 'Ollama', baseURL: 'http://localhost:11434/v1', models: [] },
      'llama3.2',
    )
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('refused requests from this page (CORS)')
  })

  it('stores the default model, the small model and the retry limit as they change', async () => {
    const { root, settings } = open([openai, local])
    await settle()
    select(byLabel(root, 'Default model'), 'prv_b/llama3.2')
    await settle()
    select(byLabel(root, 'Small model'), 'prv_a/gpt-4o-mini')
    await settle()
    const retry = byLabel<HTMLInputElement>(root, 'Retry limit')
    expect(retry.value).toBe('8')
    retry.value = '3'
    retry.dispatchEvent(new Event('change', { bubbles: true }))
    await settle()
    expect(settings()).toEqual({
      retryLimit: 3,
      workspaceBackend: 'auto',
      compactionAuto: true,
      compactionPrune: true,
      compactionTailTurns: 2,
      defaultModel: { providerID: 'prv_b', modelID: 'llama3.2' },
      smallModel: { providerID: 'prv_a', modelID: 'gpt-4o-mini' },
      notifications: { enabled: false, turnEnded: true, waiting: true, error: true },
    })
    retry.value = '-2'
    retry.dispatchEvent(new Event('change', { bubbles: true }))
    expect(root.querySelector('[role="alert"]')?.textContent).toBe('The retry limit must be a whole number from 0 to 100.')
  })

  it('switches automatic compaction and the clearing of old tool outputs', async () => {
    const { root, settings } = open([openai])
    await settle()
    const section = [...root.querySelectorAll('section')].find((candidate) => candidate.querySelector('h3')?.textContent === 'Context')!
    const auto = byLabel<HTMLInputElement>(section, 'Compact automatically near the context limit')
    const prune = byLabel<HTMLInputElement>(section, 'Clear old tool outputs for the model')
    expect([auto.type, auto.checked, prune.checked]).toEqual(['checkbox', true, true])
    auto.checked = false
    auto.dispatchEvent(new Event('change', { bubbles: true }))
    await settle()
    expect(settings()).toMatchObject({ compactionAuto: false, compactionPrune: true })
    expect(root.querySelector('[role="status"]')?.textContent).toBe('Automatic compaction off.')
    prune.checked = false
    prune.dispatchEvent(new Event('change', { bubbles: true }))
    await settle()
    expect(settings()).toMatchObject({ compactionAuto: false, compactionPrune: false })
    expect(auto.checked).toBe(false)
  })

  it('marks a stored key and removes it only on save', async () => {
    const { root, saved } = open([openai])
    await settle()
    button(root, 'Edit OpenAI').click()
    expect(root.textContent).toContain('Key stored')
    expect(byLabel<HTMLInputElement>(root, 'API key').type).toBe('password')
    button(root, 'Remove key').click()
    expect(root.textContent).toContain('The stored key will be removed when you save.')
    root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    await settle()
    expect(root.querySelector('[role="alert"]')?.textContent).toBe('OpenAI needs an API key.')
    button(root, 'Keep key').click()
    type(byLabel(root, 'API key'), 'sk-replacement')
    root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    await settle()
    expect(saved[0]).toMatchObject({ id: 'prv_a', apiKey: 'sk-replacement' })
  })
})
