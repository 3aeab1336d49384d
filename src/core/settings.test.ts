import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRY_LIMIT, DEFAULT_SETTINGS, modelForPrompt, settingsFromRows } from './settings'

const CHOSEN = { providerID: 'openai', modelID: 'gpt-chosen' }
const LAST = { providerID: 'openai', modelID: 'gpt-last' }
const SESSION = { providerID: 'anthropic', modelID: 'claude-session' }
const DEFAULT = { providerID: 'google', modelID: 'gemini-default' }

describe('modelForPrompt', () => {
  const everything = { lastUser: { model: LAST }, session: { model: SESSION }, settings: { defaultModel: DEFAULT } }

  it('runs a prompt with the model chosen for it over every other', () => {
    expect(modelForPrompt({ explicit: CHOSEN, ...everything })).toEqual(CHOSEN)
  })

  it('falls back to the newest prompt, then the session, then the default model', () => {
    expect(modelForPrompt(everything)).toEqual(LAST)
    expect(modelForPrompt({ ...everything, lastUser: {} })).toEqual(SESSION)
    expect(modelForPrompt({ ...everything, lastUser: undefined, session: {} })).toEqual(DEFAULT)
  })

  it('is undefined when nothing names a model', () => {
    expect(modelForPrompt({})).toBeUndefined()
    expect(modelForPrompt({ lastUser: {}, session: {}, settings: {} })).toBeUndefined()
  })

  it("keeps only the reference of the session's model", () => {
    expect(modelForPrompt({ session: { model: { ...SESSION, id: 'row-1', variant: 'high' } as typeof SESSION } })).toEqual(SESSION)
  })
})

describe('settingsFromRows', () => {
  it('gives the defaults when nothing is stored', () => {
    expect(settingsFromRows([])).toEqual({
      retryLimit: DEFAULT_RETRY_LIMIT,
      workspaceBackend: 'auto',
      compactionAuto: true,
      compactionPrune: true,
      compactionTailTurns: 2,
      // Off until the user turns them on; each kind then on.
      notifications: { enabled: false, turnEnded: true, waiting: true, error: true },
    })
    expect(settingsFromRows([])).toEqual(DEFAULT_SETTINGS)
  })

  it('folds each stored row over the defaults', () => {
    expect(
      settingsFromRows([
        { key: 'model.default', value: DEFAULT },
        { key: 'model.small', value: LAST },
        { key: 'retry.limit', value: 2 },
        { key: 'workspace.backend', value: 'local' },
        { key: 'compaction.auto', value: false },
        { key: 'compaction.prune', value: false },
        { key: 'project.current', value: 'prj_1' },
        { key: 'notifications', value: { enabled: true, turnEnded: false, waiting: true, error: true } },
      ]),
    ).toEqual({
      defaultModel: DEFAULT,
      smallModel: LAST,
      retryLimit: 2,
      workspaceBackend: 'local',
      compactionAuto: false,
      compactionPrune: false,
      compactionTailTurns: 2,
      notifications: { enabled: true, turnEnded: false, waiting: true, error: true },
    })
  })

  it('reads a notifications row written before a kind existed, with that kind at its default', () => {
    expect(settingsFromRows([{ key: 'notifications', value: { enabled: true } }]).notifications).toEqual({ enabled: true, turnEnded: true, waiting: true, error: true })
  })

  it('skips a row this build cannot read instead of failing the whole view', () => {
    expect(settingsFromRows([{ key: 'retry.limit', value: 'many' }, { key: 'theme', value: 'dark' }, { key: 'compaction.auto', value: false }])).toEqual({
      ...DEFAULT_SETTINGS,
      compactionAuto: false,
    })
  })

  it("reads the rows of a database from before the tail settings with opencode's defaults: 2 turns, the automatic token budget", () => {
    const old = settingsFromRows([{ key: 'compaction.auto', value: true }, { key: 'compaction.prune', value: false }])
    expect(old.compactionTailTurns).toBe(2)
    expect(old).not.toHaveProperty('compactionPreserveRecentTokens')
  })

  it('folds the tail settings, "auto" being the automatic token budget, and skips a row out of bounds', () => {
    expect(settingsFromRows([{ key: 'compaction.tailTurns', value: 0 }, { key: 'compaction.preserveRecentTokens', value: 20_000 }])).toMatchObject({
      compactionTailTurns: 0,
      compactionPreserveRecentTokens: 20_000,
    })
    expect(settingsFromRows([{ key: 'compaction.preserveRecentTokens', value: 20_000 }, { key: 'compaction.preserveRecentTokens', value: 'auto' }])).not.toHaveProperty(
      'compactionPreserveRecentTokens',
    )
    for (const value of [-1, 2.5, 1_001, '3']) {
      expect(settingsFromRows([{ key: 'compaction.tailTurns', value }]).compactionTailTurns).toBe(2)
    }
    expect(settingsFromRows([{ key: 'compaction.preserveRecentTokens', value: -5 }])).not.toHaveProperty('compactionPreserveRecentTokens')
  })

  it('never changes the defaults it starts from', () => {
    settingsFromRows([{ key: 'retry.limit', value: 1 }])
    expect(DEFAULT_SETTINGS.retryLimit).toBe(DEFAULT_RETRY_LIMIT)
  })
})
