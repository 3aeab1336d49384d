// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { JSX } from 'solid-js'
import { render } from 'solid-js/web'
import type { InboxEntry } from '../../core/schema'
import type { AgentSummary, ClientApi, PromptInput, ProviderSummary } from '../../core/protocol'
import { ProviderStoreContext, type ProviderStore } from '../settings/create-provider-store'
import type { SessionStore } from '../store/create-session-store'
import { makeDraftStore } from '../store/draft-store'
import { SessionStoreContext } from '../store/session-store-context'
import { PromptBox } from './prompt-box'
import { CommandConfirmationError } from '../../core/project-files/errors'

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
    source: 'built-in',
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

function mount(
  draftAgent?: string,
  queued: InboxEntry[] = [],
  options: { running?: boolean; cancel?: () => Promise<void>; stored?: (input: PromptInput) => Promise<void> } = {},
) {
  const prompts: PromptInput[] = []
  const edits: { inputID: string; parts: unknown }[] = []
  const removed: string[] = []
  const listAgents = vi.fn(async () => AGENTS)
  const api = {
    listAgents,
    prompt: async (input: PromptInput) => {
      prompts.push(input)
      await options.stored?.(input)
      return { status: 'stored', messageID: 'msg_1' }
    },
    cancel: options.cancel ?? (async () => {}),
    editQueuedPrompt: async (inputID: string, parts: unknown) => void edits.push({ inputID, parts }),
    removeQueuedPrompt: async (inputID: string) => removed.push(inputID) > 0,
  } as unknown as ClientApi
  const drafts = makeDraftStore()
  if (draftAgent) drafts.update('ses_1', { agent: draftAgent })
  const sessions = { api, drafts, state: { status: options.running ? { ses_1: { type: 'busy' } } : {}, sessions: {}, queued: { ses_1: queued } } } as unknown as SessionStore
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
  return { root: container, prompts, drafts, listAgents, select, edits, removed }
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

describe('prompt box: queued prompts', () => {
  const entry = (id: string, text: string): InboxEntry => ({
    id,
    sessionID: 'ses_1',
    parts: [{ type: 'text', text }],
    time: { created: 1 },
  })
  const chip = (root: HTMLElement, name: string) => root.querySelector<HTMLElement>(`li[aria-label="${name}"]`)

  it('shows each queued prompt under the box, next to run first, with Edit and Remove', async () => {
    const { root, removed } = mount(undefined, [entry('input_1', 'write the tests'), entry('input_2', 'update the docs')])
    await settle()
    expect(root.querySelector('ol[aria-label="Queued prompts"]')).not.toBeNull()
    const second = chip(root, 'Queued prompt 2: update the docs')!
    expect(chip(root, 'Queued prompt 1: write the tests')).not.toBeNull()
    second.querySelector<HTMLButtonElement>('button[aria-label="Remove queued prompt"]')!.click()
    await settle()
    expect(removed).toEqual(['input_2'])
  })

  it('edits a queued prompt in place; Escape drops the change without stopping the turn', async () => {
    const { root, edits } = mount(undefined, [entry('input_1', 'write the tests')])
    await settle()
    const edit = () => chip(root, 'Queued prompt 1: write the tests')!.querySelector<HTMLButtonElement>('button[aria-label="Edit queued prompt"]')!
    edit().click()
    const field = () => root.querySelector<HTMLTextAreaElement>('textarea[aria-label="Queued prompt 1"]')!
    const escape = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })
    field().dispatchEvent(escape)
    expect(escape.defaultPrevented).toBe(true)
    expect(root.querySelector('textarea[aria-label="Queued prompt 1"]')).toBeNull()
    edit().click()
    field().value = 'write the unit tests'
    field().dispatchEvent(new Event('input', { bubbles: true }))
    field().dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }))
    await settle()
    expect(edits).toEqual([{ inputID: 'input_1', parts: [{ type: 'text', text: 'write the unit tests' }] }])
  })
})

describe('prompt box while a turn runs', () => {
  const button = (root: HTMLElement, name: string) =>
    [...root.querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === name)

  it('says Stopping… from the press of Stop until the turn has ended', async () => {
    let cancels = 0
    const { root } = mount(undefined, [], { running: true, cancel: () => (cancels++, new Promise<void>(() => {})) })
    await settle()
    button(root, 'Stop')!.click()
    await settle()
    expect(button(root, 'Stop')).toBeUndefined()
    expect(button(root, 'Stopping…')!.getAttribute('aria-disabled')).toBe('true')
    button(root, 'Stopping…')!.click()
    expect(cancels).toBe(1)
  })

  it('gives focus back to the prompt after Queue is clicked, so Escape still reaches the turn', async () => {
    const { root, prompts } = mount(undefined, [], { running: true })
    await settle()
    const text = root.querySelector<HTMLTextAreaElement>('#prompt')!
    text.value = 'then write the tests'
    text.dispatchEvent(new Event('input', { bubbles: true }))
    const queue = button(root, 'Queue')!
    queue.focus()
    queue.click()
    await settle()
    expect(prompts.map((prompt) => prompt.delivery)).toEqual(['queue'])
    expect(document.activeElement).toBe(text)
  })
})

describe('prompt box: sending quickly', () => {
  const type = (text: HTMLTextAreaElement, more: string) => {
    text.value += more
    text.dispatchEvent(new Event('input', { bubbles: true }))
  }
  const enter = (text: HTMLTextAreaElement) => text.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }))
  const sentTexts = (prompts: PromptInput[]) => prompts.map((prompt) => prompt.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''))

  it('sends a prompt entered while the one before is being stored after it, in order, and clears only what was sent', async () => {
    const storing: (() => void)[] = []
    const { root, prompts } = mount(undefined, [], { stored: () => new Promise<void>((resolve) => storing.push(resolve)) })
    await settle()
    const text = root.querySelector<HTMLTextAreaElement>('#prompt')!
    type(text, 'first question')
    enter(text)
    type(text, ' second question')
    enter(text)
    type(text, ' still typing')
    await settle()
    // The second waits for the first to be stored; both texts stay in the box until then.
    expect(sentTexts(prompts)).toEqual(['first question'])
    expect(text.value).toBe('first question second question still typing')
    storing.shift()!()
    await settle()
    expect(sentTexts(prompts)).toEqual(['first question', 'second question'])
    expect(text.value).toBe('second question still typing')
    storing.shift()!()
    await settle()
    expect(text.value).toBe('still typing')
  })

  it('keeps both texts in the box when the first cannot be stored, and sends neither out of order', async () => {
    let fail: (error: Error) => void = () => {}
    const { root, prompts } = mount(undefined, [], {
      stored: (input) => (input.parts.some((part) => part.type === 'text' && part.text === 'first') ? new Promise((_, reject) => (fail = reject)) : Promise.resolve()),
    })
    await settle()
    const text = root.querySelector<HTMLTextAreaElement>('#prompt')!
    type(text, 'first')
    enter(text)
    type(text, ' second')
    enter(text)
    await settle()
    fail(new Error('the disk is full'))
    await settle()
    expect(sentTexts(prompts)).toEqual(['first'])
    expect(text.value).toBe('first second')
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('the disk is full')
    // Sent again, the box goes as one prompt, as typed.
    enter(text)
    await settle()
    expect(sentTexts(prompts)).toEqual(['first', 'first second'])
    expect(text.value).toBe('')
  })

  it('sends exactly the command the user confirmed, and keeps what was sent behind it in the box', async () => {
    let refuse: (error: Error) => void = () => {}
    const { root, prompts } = mount(undefined, [], {
      stored: (input) =>
        input.parts.some((part) => part.type === 'text' && part.text.startsWith('/review')) && !input.command
          ? new Promise((_, reject) => (refuse = reject))
          : Promise.resolve(),
    })
    await settle()
    const text = root.querySelector<HTMLTextAreaElement>('#prompt')!
    type(text, '/review src')
    enter(text)
    // A second prompt sent while the first is stored waits behind it, and stays in the box when the first is refused.
    type(text, ' and then explain it')
    enter(text)
    await settle()
    refuse(new CommandConfirmationError({ name: 'review', agent: 'yolo' }))
    await settle()
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!
    expect(dialog.textContent).toContain('Run /review with the yolo agent?')
    expect(text.value).toBe('/review src and then explain it')
    ;[...dialog.querySelectorAll('button')].find((button) => button.textContent === 'Run as yolo')!.click()
    await settle()
    expect(prompts.at(-1)).toMatchObject({ parts: [{ type: 'text', text: '/review src' }], command: { name: 'review', agent: 'yolo' } })
    expect(sentTexts(prompts)).toEqual(['/review src', '/review src'])
    expect(text.value).toBe('and then explain it')
  })
})
