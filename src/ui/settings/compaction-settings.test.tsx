// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { createSignal } from 'solid-js'
import { render } from 'solid-js/web'
import type { Setting } from '../../core/schema'
import type { Settings } from '../../core/protocol'
import { CompactionSettings } from './compaction-settings'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** The section over a store that keeps what it is given, as the worker does, or refuses with `refuse`'s words. */
function mountSection(options: { stored?: Partial<Settings>; refuse?: string } = {}) {
  const [settings, setSettings] = createSignal<Settings>({
    retryLimit: 8,
    workspaceBackend: 'auto',
    compactionAuto: true,
    compactionPrune: true,
    compactionTailTurns: 2,
    notifications: { enabled: false, turnEnded: true, waiting: true, error: true },
    ...options.stored,
  })
  const saved: Setting[] = []
  const notices: Array<{ tone: string; text: string }> = []
  const store = {
    settings,
    setSetting: async (setting: Setting) => {
      if (options.refuse) throw new Error(options.refuse)
      saved.push(setting)
      if (setting.key === 'compaction.tailTurns') setSettings({ ...settings(), compactionTailTurns: setting.value })
      if (setting.key === 'compaction.preserveRecentTokens') {
        const { compactionPreserveRecentTokens: _previous, ...rest } = settings()
        setSettings(setting.value === 'auto' ? rest : { ...rest, compactionPreserveRecentTokens: setting.value })
      }
      return settings()
    },
  }
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(() => <CompactionSettings store={store} onNotice={(notice) => notices.push(notice)} />, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  const field = (name: string) => {
    const label = [...container.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === name)
    return container.querySelector<HTMLInputElement>(`#${CSS.escape(label!.htmlFor)}`)!
  }
  const hint = (input: HTMLInputElement) => document.getElementById(input.getAttribute('aria-describedby')!)?.textContent
  /** Types `text` and leaves the field, as a user does. */
  const enter = async (input: HTMLInputElement, text: string) => {
    input.value = text
    input.dispatchEvent(new Event('input', { bubbles: true }))
    input.dispatchEvent(new Event('change', { bubbles: true }))
    await settle()
  }
  return {
    saved,
    notices,
    settings,
    enter,
    hint,
    turns: () => field('Recent turns kept verbatim'),
    tokens: () => field('Token budget for kept turns'),
  }
}

describe('Settings → Context: what a compaction keeps verbatim', () => {
  it("shows opencode's defaults, labelled and explained: 2 turns, an automatic token budget", () => {
    const section = mountSection()
    expect(section.turns().value).toBe('2')
    expect(section.tokens().value).toBe('')
    expect(section.tokens().placeholder).toBe('Automatic')
    expect(section.hint(section.turns())).toContain('0 keeps none. Default 2')
    expect(section.hint(section.tokens())).toContain("Empty: automatic, a quarter of the model's usable context, from 2,000 to 8,000.")
  })

  it('saves a number of turns and a token budget, digit groups allowed, and goes back to automatic when emptied', async () => {
    const section = mountSection()
    await section.enter(section.turns(), '4')
    await section.enter(section.tokens(), '20,000')
    expect(section.saved).toEqual([
      { key: 'compaction.tailTurns', value: 4 },
      { key: 'compaction.preserveRecentTokens', value: 20_000 },
    ])
    expect(section.tokens().value).toBe('20000')
    expect(section.notices.map((notice) => notice.text)).toEqual(['A compaction now keeps the last 4 turns verbatim.', 'Token budget for kept turns: 20,000.'])
    await section.enter(section.tokens(), '')
    expect(section.saved.at(-1)).toEqual({ key: 'compaction.preserveRecentTokens', value: 'auto' })
    expect(section.settings()).not.toHaveProperty('compactionPreserveRecentTokens')
    await section.enter(section.turns(), '0')
    expect(section.notices.at(-1)).toEqual({ tone: 'status', text: 'A compaction now keeps no turns verbatim.' })
  })

  it.each([
    { field: 'turns' as const, text: '-1', error: 'Recent turns kept must be a whole number from 0 to 1,000.' },
    { field: 'turns' as const, text: '2.5', error: 'Recent turns kept must be a whole number from 0 to 1,000.' },
    { field: 'turns' as const, text: '1001', error: 'Recent turns kept must be a whole number from 0 to 1,000.' },
    { field: 'tokens' as const, text: 'lots', error: 'The token budget must be a whole number from 0 to 10,000,000, or empty for automatic.' },
    { field: 'tokens' as const, text: '8.000', error: 'The token budget must be a whole number from 0 to 10,000,000, or empty for automatic.' },
  ])('refuses $text with an alert, saves nothing and keeps the text to correct', async ({ field, text, error }) => {
    const section = mountSection({ stored: { compactionTailTurns: 3, compactionPreserveRecentTokens: 5_000 } })
    const input = section[field]()
    await section.enter(input, text)
    expect(section.notices).toEqual([{ tone: 'alert', text: error }])
    expect(section.saved).toEqual([])
    expect(input.value).toBe(text)
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(section.settings()).toMatchObject({ compactionTailTurns: 3, compactionPreserveRecentTokens: 5_000 })
  })

  it("shows the worker's refusal and keeps the typed value", async () => {
    const section = mountSection({ refuse: 'setting: value: Too big' })
    await section.enter(section.turns(), '7')
    expect(section.notices).toEqual([{ tone: 'alert', text: 'setting: value: Too big' }])
    expect(section.turns().value).toBe('7')
    expect(section.settings().compactionTailTurns).toBe(2)
  })
})
