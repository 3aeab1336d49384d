import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../core/settings'
import { removeProvider, saveProvider, setSetting, getSettings } from './provider-store'
import { AGENTS } from '../core/agent'
import { agentFor, listAgentSummaries, loadAgents, readAgentOverrides, saveAgentSettings } from './agent-settings'
import { makeTestContext } from '../testing/test-context'

/** Notifications are off until the user turns them on. */
const NOTIFICATIONS_OFF = DEFAULT_SETTINGS.notifications

async function setup() {
  const test = makeTestContext()
  const provider = await saveProvider(test.context, { type: 'openai', name: 'OpenAI', apiKey: 'sk-test', models: [{ id: 'gpt-4o' } as never] })
  return { ...test, provider, model: { providerID: provider.id, modelID: 'gpt-4o' } }
}

describe('agent settings', () => {
  it('round-trips an override through storage and applies it', async () => {
    const { context, db, model } = await setup()
    const override = { model, prompt: 'Plan carefully.', steps: 12, temperature: 0.3, permission: [{ permission: 'edit', pattern: 'docs/*', action: 'allow' as const }] }
    const summaries = await saveAgentSettings(context, { name: 'plan', override })
    expect(await readAgentOverrides(context)).toEqual({ plan: override })
    expect(await db.settings.get('agents')).toEqual({ key: 'agents', value: { plan: override } })

    const plan = summaries.find((summary) => summary.name === 'plan')!
    expect(plan).toMatchObject({ model, prompt: 'Plan carefully.', steps: 12, temperature: 0.3, override, disabled: false, canDisable: true })
    expect(plan.defaultPrompt).toBe(AGENTS.plan!.prompt)
    expect(plan.permission.at(-1)).toEqual(override.permission[0])
    expect(await listAgentSummaries(context)).toEqual(summaries)

    const agent = await agentFor(context, 'plan')
    expect(agent).toMatchObject({ name: 'plan', model, prompt: 'Plan carefully.', steps: 12, temperature: 0.3 })
    expect((await agentFor(context, 'build')).prompt).toBe(AGENTS.build!.prompt)
    // The other settings are untouched by the agents row.
    expect(await getSettings(context)).toEqual({ retryLimit: 8, workspaceBackend: 'auto', compactionAuto: true, compactionPrune: true, compactionTailTurns: 2, notifications: NOTIFICATIONS_OFF })
  })

  it('replaces an override per agent, and an empty one restores the built-in agent', async () => {
    const { context } = await setup()
    await saveAgentSettings(context, { name: 'plan', override: { steps: 3 } })
    await saveAgentSettings(context, { name: 'explore', override: { disabled: true } })
    await saveAgentSettings(context, { name: 'plan', override: { prompt: 'Short plans.' } })
    expect(await readAgentOverrides(context)).toEqual({ plan: { prompt: 'Short plans.' }, explore: { disabled: true } })
    // Blank values mean "keep the built-in one" and are not stored.
    await saveAgentSettings(context, { name: 'plan', override: { prompt: '   ', permission: [], disabled: false } })
    expect(await readAgentOverrides(context)).toEqual({ explore: { disabled: true } })
    const summaries = await listAgentSummaries(context)
    expect(summaries.map((summary) => [summary.name, summary.disabled])).toEqual([
      ['build', false],
      ['plan', false],
      ['general', false],
      ['explore', true],
      ['title', false],
      ['compaction', false],
      ['summary', false],
    ])
    expect(Object.keys(await loadAgents(context))).not.toContain('explore')
  })

  it('refuses unknown agents, invalid values, unconfigured models and disabling build', async () => {
    const { context, provider } = await setup()
    await expect(saveAgentSettings(context, { name: 'nobody', override: {} })).rejects.toMatchObject({ name: 'NotFoundError' })
    await expect(saveAgentSettings(context, { name: 'plan', override: { steps: 0 } })).rejects.toMatchObject({
      name: 'InputError',
      data: { field: 'steps' },
    })
    await expect(saveAgentSettings(context, { name: 'plan', override: { temperature: 3 } })).rejects.toMatchObject({ name: 'InputError' })
    await expect(
      saveAgentSettings(context, { name: 'plan', override: { model: { providerID: provider.id, modelID: 'gpt-5-imaginary' } } }),
    ).rejects.toThrow(/must be one of OpenAI's models/)
    await expect(saveAgentSettings(context, { name: 'plan', override: { model: { providerID: 'prv_gone', modelID: 'x' } } })).rejects.toMatchObject({
      data: { field: 'model' },
    })
    await expect(saveAgentSettings(context, { name: 'build', override: { disabled: true } })).rejects.toThrow(/can't be disabled/)
    await expect(saveAgentSettings(context, { name: 'title', override: { disabled: true } })).rejects.toThrow(/can't be disabled/)
    expect(await readAgentOverrides(context)).toEqual({})
  })

  it('stops using a model whose provider was removed, and keeps it stored', async () => {
    const { context, provider, model } = await setup()
    await saveAgentSettings(context, { name: 'general', override: { model, steps: 4 } })
    await removeProvider(context, provider.id)
    const general = (await listAgentSummaries(context)).find((summary) => summary.name === 'general')!
    expect(general.model).toBeUndefined()
    expect(general.steps).toBe(4)
    expect(general.override.model).toEqual(model)
    expect((await agentFor(context, 'general')).model).toBeUndefined()
  })

  it('reads the entries it understands and skips the others', async () => {
    const { context, db } = await setup()
    await db.settings.put({ key: 'agents', value: { plan: { steps: 2 }, explore: { steps: 'many' } } as never })
    expect(await readAgentOverrides(context)).toEqual({ plan: { steps: 2 } })
    // Writing keeps the readable entries.
    await saveAgentSettings(context, { name: 'build', override: { steps: 9 } })
    expect(await readAgentOverrides(context)).toEqual({ plan: { steps: 2 }, build: { steps: 9 } })
  })

  it("adds an agent of the user's own, refuses one without a name, prompt or mode, and removes it with an empty override", async () => {
    const { context, model } = await setup()
    await expect(saveAgentSettings(context, { name: 'bad name', override: { mode: 'all', prompt: 'x' } })).rejects.toMatchObject({ data: { field: 'name' } })
    await expect(saveAgentSettings(context, { name: 'helper', override: { mode: 'all' } })).rejects.toMatchObject({ data: { field: 'prompt' } })
    await expect(saveAgentSettings(context, { name: 'helper', override: { prompt: 'You help.' } })).rejects.toMatchObject({ data: { field: 'mode' } })
    const summaries = await saveAgentSettings(context, { name: 'helper', override: { description: 'Helps', mode: 'subagent', prompt: 'You help.', model } })
    expect(summaries.find((summary) => summary.name === 'helper')).toMatchObject({ source: 'settings', mode: 'subagent', description: 'Helps', prompt: 'You help.', model })
    expect(await agentFor(context, 'helper')).toMatchObject({ name: 'helper', prompt: 'You help.', model })
    await saveAgentSettings(context, { name: 'helper', override: {} })
    expect((await listAgentSummaries(context)).map((summary) => summary.name)).not.toContain('helper')
    await expect(saveAgentSettings(context, { name: 'helper', override: {} })).rejects.toMatchObject({ name: 'NotFoundError' })
  })

  it("lists and runs a project file's agent, with the user's rules after the file's and an unconfigured model left out", async () => {
    const { context } = await setup()
    const files = [
      {
        name: 'reviewer',
        path: '.opencode/agent/reviewer.md',
        config: { prompt: 'You review.', model: { providerID: 'anthropic', modelID: 'claude' }, permission: [{ permission: 'edit', pattern: '*', action: 'deny' as const }] },
      },
    ]
    const [summary] = (await listAgentSummaries(context, files)).filter((entry) => entry.name === 'reviewer')
    expect(summary).toMatchObject({ source: 'project', path: '.opencode/agent/reviewer.md', mode: 'all', prompt: 'You review.', defaultPrompt: 'You review.' })
    expect(summary!.model).toBeUndefined()
    await saveAgentSettings(context, { name: 'reviewer', override: { permission: [{ permission: 'edit', pattern: 'docs/*', action: 'allow' }] } }, files)
    const reviewer = await agentFor(context, 'reviewer', files)
    expect(reviewer.model).toBeUndefined()
    expect(reviewer.permission.slice(-2)).toEqual([
      { permission: 'edit', pattern: '*', action: 'deny' },
      { permission: 'edit', pattern: 'docs/*', action: 'allow' },
    ])
    // Without the file (another project) the override names no agent.
    expect((await agentFor(context, 'reviewer')).name).toBe('build')
  })

  it('is a setting row like the others', async () => {
    const { context } = await setup()
    await setSetting(context, { key: 'agents', value: { plan: { steps: 7 } } })
    expect((await agentFor(context, 'plan')).steps).toBe(7)
  })
})
