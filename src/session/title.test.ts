import { describe, expect, it, vi } from 'vitest'
import { log } from '../core/log'
import { TITLE_PROMPT } from '../core/title-generation'
import { loadHistory } from '../store/message-store'
import { createUserMessage } from '../store/prompt'
import { createSession, getSession, setTitle } from '../store/session-store'
import { makeTestContext } from '../testing/test-context'
import { apiError, scriptedModel, textReply, type ScriptedReply } from '../testing/scripted-model'
import type { ModelSource, ResolvedModel } from './model-source'
import { generateTitle } from './title'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

/** A new session with one prompt, a main and a small model, and `generateTitle` as the loop calls it. */
async function setup(titleReplies: ScriptedReply[], options: { small?: boolean } = {}) {
  const test = makeTestContext()
  const main = scriptedModel([textReply('Named by the main model')])
  const small = scriptedModel(titleReplies, 'mock-small')
  const resolved = (modelID: string): ResolvedModel => ({
    model: modelID === 'mock-small' ? small.model : main.model,
    providerID: 'mock',
    modelID,
    limit: { context: 100_000, output: 4_000 },
    cost: { input: 1, output: 1 },
    redact: (text) => text.replaceAll('sk-secret', '[redacted]'),
  })
  const models: ModelSource = {
    resolve: async (reference) => resolved(reference.modelID),
    smallModel: async () => (options.small === false ? undefined : { providerID: 'mock', modelID: 'mock-small' }),
  }
  const sleeps: number[] = []
  const dependencies = { store: test.context, models, sleep: async (milliseconds: number) => void sleeps.push(milliseconds) }
  const session = await createSession(test.context, { projectID: 'prj_test' })
  await createUserMessage(test.context, { sessionID: session.id, parts: [{ type: 'text', text: 'make the parser faster' }], model: MODEL })
  const name = async () => {
    await generateTitle(dependencies, session, await loadHistory(test.context, session.id), resolved('mock-model'))
    return (await getSession(test.context, session.id)).title
  }
  return { ...test, session, main, small, sleeps, name }
}

describe('session titles', () => {
  it('are written by the small model, from the first prompt, with the title prompt and no tools', async () => {
    const test = await setup([textReply('<think>short?</think>\n\n  Speed up the parser  \nmore')])
    expect(await test.name()).toBe('Speed up the parser')
    const [call] = test.small.model.doStreamCalls
    expect(call!.prompt[0]).toEqual({ role: 'system', content: TITLE_PROMPT })
    expect(JSON.stringify(call!.prompt.slice(1))).toContain('Generate a title for this conversation:\\n')
    expect(JSON.stringify(call!.prompt.slice(1))).toContain('make the parser faster')
    expect(call!.tools).toBeUndefined()
    expect(call!.maxOutputTokens).toBe(200)
    expect(test.main.model.doStreamCalls).toHaveLength(0)
  })

  it("use the conversation's model when there is no small one", async () => {
    const test = await setup([], { small: false })
    expect(await test.name()).toBe('Named by the main model')
  })

  it('are tried again twice on an error worth retrying, after the backoff', async () => {
    const test = await setup([apiError(503, 'overloaded'), apiError(429, 'slow down'), textReply('Faster parser')])
    expect(await test.name()).toBe('Faster parser')
    expect(test.sleeps).toEqual([2_000, 4_000])
  })

  it('give up after two retries, or at once on an error that retrying cannot fix, and say why without the key', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {})
    try {
      const busy = await setup([apiError(500, 'down'), apiError(500, 'down'), apiError(500, 'down'), textReply('Too late')])
      expect(await busy.name()).toMatch(/^New session - /)
      expect(busy.small.model.doStreamCalls).toHaveLength(3)

      const refused = await setup([apiError(401, 'bad key sk-secret'), textReply('Never asked')])
      expect(await refused.name()).toMatch(/^New session - /)
      expect(refused.small.model.doStreamCalls).toHaveLength(1)
      expect(refused.sleeps).toEqual([])
      expect(warn).toHaveBeenLastCalledWith('tabcode: could not name the session', expect.objectContaining({ name: 'ProviderAuthError' }))
      expect(JSON.stringify(warn.mock.calls.at(-1))).toContain('bad key [redacted]')
      expect(JSON.stringify(warn.mock.calls.at(-1))).not.toContain('sk-secret')
    } finally {
      warn.mockRestore()
    }
  })

  it('do not replace a title the user gave meanwhile', async () => {
    const test = await setup([textReply('Model title')])
    // Renamed after the turn started with the default title, before the title came back.
    await setTitle(test.context, test.session.id, 'Mine')
    expect(await test.name()).toBe('Mine')
    expect(test.small.model.doStreamCalls).toHaveLength(1)
  })
})
