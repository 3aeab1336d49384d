import { describe, expect, it } from 'vitest'
import { PermissionRejectedError } from '../core/permission/errors'
import type { PermissionReply } from '../core/schema'
import { ToolRegistry } from '../tools/registry'
import { createUserMessage } from '../store/prompt'
import { loadHistory } from '../store/message-store'
import { createSession } from '../store/session-store'
import { makeTestContext } from '../testing/test-context'
import { testWorkspacePorts } from '../testing/loop-dependencies'
import { scriptedModel, textReply, toolReply } from '../testing/scripted-model'
import { runLoop, type LoopDependencies } from './loop'
import type { PermissionGate } from './turn-services'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }
const QUESTION = {
  questions: [{ question: 'Which colour?', header: 'Colour', options: [{ label: 'Blue', description: '' }, { label: 'Green', description: '' }] }],
}

/** A turn whose model calls `question` once, with the user's reply given by `reply`. */
async function turnWithQuestion(reply: () => Promise<PermissionReply>) {
  const test = makeTestContext()
  const main = scriptedModel([toolReply([{ id: 'call_q', name: 'question', input: QUESTION }]), textReply('Blue it is.')])
  const small = scriptedModel([textReply('A title')], 'mock-small')
  const permissions: PermissionGate = {
    check: async ({ request }) => (request.permission === 'question' ? reply() : undefined),
    hiddenTools: () => [],
  }
  const dependencies: LoopDependencies = {
    store: test.context,
    models: {
      resolve: async (reference) => ({
        model: reference.modelID === 'mock-small' ? small.model : main.model,
        providerID: reference.providerID,
        modelID: reference.modelID,
        limit: { context: 100_000, output: 4_000 },
        cost: { input: 0, output: 0 },
      }),
      smallModel: async () => ({ providerID: 'mock', modelID: 'mock-small' }),
    },
    tools: new ToolRegistry(),
    permissions,
    retryLimit: async () => 0,
    sleep: async () => {},
    setStatus: () => {},
    compaction: async () => ({ auto: false, prune: false }),
    ...testWorkspacePorts({ now: test.context.now }),
  }
  const session = await createSession(test.context, { projectID: 'prj_test' })
  await createUserMessage(test.context, { sessionID: session.id, parts: [{ type: 'text', text: 'Style the button' }], model: MODEL })
  await runLoop(dependencies, session.id, { signal: new AbortController().signal })
  const parts = (await loadHistory(test.context, session.id)).flatMap((entry) => entry.parts)
  return { main, tool: parts.find((part) => part.type === 'tool'), parts }
}

describe('a question in the loop', () => {
  it('sends the answer to the model in the tool result, and the model carries on', async () => {
    const { main, tool, parts } = await turnWithQuestion(async () => ({ type: 'answer', answers: [['Blue']] }))
    expect(tool?.type === 'tool' && tool.state.status).toBe('completed')
    expect(JSON.stringify(main.model.doStreamCalls[1]?.prompt)).toContain('User has answered your questions: \\"Which colour?\\"=\\"Blue\\"')
    expect(parts.some((part) => part.type === 'text' && part.text === 'Blue it is.')).toBe(true)
  })

  it('a dismissed question fails the call with a message the model sees, and the turn stops after the step', async () => {
    const { main, tool } = await turnWithQuestion(async () => {
      throw new PermissionRejectedError('per_x')
    })
    expect(tool?.type === 'tool' && tool.state.status === 'error' ? tool.state.error : undefined).toBe('The user dismissed this question')
    expect(main.model.doStreamCalls).toHaveLength(1)
  })
})
