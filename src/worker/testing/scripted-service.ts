import { expect } from 'vitest'
import { TabcodeDatabase } from '../../store/database'
import type { SessionEvent } from '../../core/event'
import { scriptedModel, type ScriptedReply } from '../../testing/scripted-model'
import { openDatabase } from '../../store/open-database'
import { createService } from '../service'
// Loaded with the test file, as it was before the worker split: the service imports the engine lazily, and
// transforming it (the AI SDK, the tools) inside a test's first call would eat that test's time.
import '../engine'
import { fromWire, toWire } from '../../core/wire'

export const SCRIPTED_MODEL = { providerID: 'mock', modelID: 'mock-model' }

/**
 * The worker service as the UI sees it (over the wire, errors rebuilt), on a fresh database, answering with the
 * scripted replies. `untilIdle` runs an action that starts the loop and waits until that run is over.
 */
export async function startScriptedService(replies: ScriptedReply[], name: string) {
  const events: SessionEvent[] = []
  const scripted = scriptedModel(replies)
  const service = createService({
    open: () => openDatabase(() => new TabcodeDatabase(`${name}-${crypto.randomUUID()}`)),
    emit: (event) => events.push(event),
    version: 'test',
    models: () => ({
      resolve: async () => ({ model: scripted.model, ...SCRIPTED_MODEL, limit: { context: 100_000, output: 4_000 }, cost: { input: 0, output: 0 } }),
      smallModel: async () => undefined,
    }),
  })
  const api = fromWire(toWire(service) as never)
  await api.start()
  const idle = () => events.filter((event) => event.type === 'session.status' && event.status.type === 'idle').length
  const untilIdle = async <T>(action: () => Promise<T>) => {
    const before = idle()
    const result = await action()
    await expect.poll(idle, { timeout: 5_000 }).toBeGreaterThan(before)
    return result
  }
  return { api, events, scripted, untilIdle }
}
