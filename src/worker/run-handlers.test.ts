import { describe, expect, it } from 'vitest'
import { loadHistory } from '../store/message-store'
import { ensureDefaultProject } from '../store/project-store'
import { queuedPrompts } from '../store/prompt'
import { createSession } from '../store/session-store'
import { makeTestContext } from '../testing/test-context'
import { createMemoryWorkspace } from '../workspace/local/testing/memory-workspace'
import { runHandlers } from './run-handlers'
import type { SessionRunner } from './session-runner'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

describe('the prompt handler', () => {
  it('hands the prompt to the session’s intake with the store, the project’s workspace and the runner', async () => {
    const test = makeTestContext()
    const project = await ensureDefaultProject(test.context)
    const session = await createSession(test.context, { projectID: project.id })
    const workspace = createMemoryWorkspace({ 'src/a.ts': 'export const a = 1\n' })
    const started: string[] = []
    const runner = { start: async (sessionID: string) => void started.push(sessionID) } as unknown as SessionRunner
    const handlers = runHandlers(() => test.context, () => runner, { get: async () => workspace })

    const stored = await handlers.prompt({ sessionID: session.id, parts: [{ type: 'text', text: 'look at @src/a.ts' }], model: MODEL })
    expect(stored).toMatchObject({ status: 'stored' })
    const text = (await loadHistory(test.context, session.id)).flatMap((entry) => entry.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])))
    expect(text.join('\n')).toContain('export const a = 1')

    const queued = await handlers.prompt({ sessionID: session.id, parts: [{ type: 'text', text: 'then this' }], model: MODEL, delivery: 'queue' })
    expect(queued).toMatchObject({ status: 'queued' })
    expect(await queuedPrompts(test.context, session.id)).toHaveLength(1)
    expect(started).toEqual([session.id, session.id])
  })
})
