import { describe, expect, it } from 'vitest'
import { saveProvider } from '../store/provider-store'
import { makeTestContext } from '../testing/test-context'
import { agentHandlers } from './agent-handlers'
import { fromWire, toWire } from '../core/wire'

function setup() {
  const { context } = makeTestContext()
  // Through the wire layer, as the UI sees it: named errors arrive rebuilt.
  const api = fromWire(toWire(agentHandlers(() => context) as never) as never)
  return { api, context }
}

describe('agent handlers', () => {
  it('lists every built-in agent with what pickers and settings need', async () => {
    const { api } = setup()
    const agents = await api.listAgents()
    expect(agents.map((agent) => [agent.name, agent.mode, agent.hidden])).toEqual([
      ['build', 'primary', false],
      ['plan', 'primary', false],
      ['general', 'subagent', false],
      ['explore', 'subagent', false],
      ['title', 'primary', true],
      ['compaction', 'primary', true],
      ['summary', 'primary', true],
    ])
    const plan = agents.find((agent) => agent.name === 'plan')!
    expect(plan.description).toMatch(/edits are denied/)
    expect(plan.permission).toContainEqual({ permission: 'edit', pattern: '.tabcode/plans/*.md', action: 'allow' })
    expect(plan.override).toEqual({})
    expect(plan.model).toBeUndefined()
    expect(plan.steps).toBeUndefined()
  })

  it('saves an override and answers with the new list', async () => {
    const { api, context } = setup()
    const provider = await saveProvider(context, { type: 'openai', name: 'OpenAI', apiKey: 'sk-test', models: [{ id: 'gpt-4o' } as never] })
    const model = { providerID: provider.id, modelID: 'gpt-4o' }
    const agents = await api.saveAgentSettings({ name: 'explore', override: { model, steps: 20 } })
    expect(agents.find((agent) => agent.name === 'explore')).toMatchObject({ model, steps: 20, override: { model, steps: 20 } })
    expect(await api.listAgents()).toEqual(agents)
  })

  it('rejects with named errors the form can show', async () => {
    const { api } = setup()
    await expect(api.saveAgentSettings({ name: 'build', override: { disabled: true } })).rejects.toMatchObject({
      name: 'InputError',
      data: { field: 'disabled' },
    })
    await expect(api.saveAgentSettings({ name: 'ghost', override: {} })).rejects.toMatchObject({ name: 'NotFoundError' })
  })
})
