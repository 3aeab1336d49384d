import { describe, expect, it, vi } from 'vitest'
import { TabcodeDatabase } from '../store/database'
import { openDatabase } from '../store/open-database'
import { createService } from './service'
import { fromWire, toWire } from '../core/wire'

// The engine module (loop, providers, tools) held back until the test lets it load, as on a slow first visit.
const gate = vi.hoisted(() => {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  return { release, released, requested: 0 }
})
vi.mock('./engine', async (importOriginal) => {
  gate.requested++
  await gate.released
  return importOriginal()
})

describe('the worker before its engine has loaded', () => {
  it('answers the first screen, loads the engine by itself once idle, and holds a prompt until it is in', async () => {
    const service = createService({
      open: () => openDatabase(() => new TabcodeDatabase(`engine-${crypto.randomUUID()}`)),
      emit: () => {},
      version: '1',
    })
    const api = fromWire(toWire(service) as never)
    await api.start()
    // The first screen's reads and the sidebar's writes, all answered with the engine still out.
    const session = await api.createSession({})
    expect((await api.listSessions({})).items.map((item) => item.id)).toEqual([session.id])
    expect((await api.pageMessages({ sessionID: session.id })).messages).toEqual([])
    expect((await api.getSettings()).retryLimit).toBeGreaterThan(0)
    expect(await api.listProviders()).toEqual([])
    expect(await api.queuedPrompts(session.id)).toEqual([])
    expect(gate.requested).toBe(0)
    // Nothing asked for it: the worker starts loading it once the reads have gone quiet.
    await vi.waitFor(() => expect(gate.requested).toBe(1), { timeout: 5_000 })

    let stored: unknown
    const prompt = api
      .prompt({ sessionID: session.id, parts: [{ type: 'text', text: 'hi' }], model: { providerID: 'p', modelID: 'm' } })
      .then((result) => (stored = result))
    // A read sent after it is answered first: the prompt waits for the engine, the reads do not.
    await api.listSessions({})
    expect(stored).toBeUndefined()
    gate.release()
    await prompt
    expect(stored).toMatchObject({ status: 'stored' })
    expect((await api.pageMessages({ sessionID: session.id })).messages).toHaveLength(1)
    // Transforming the real engine (the AI SDK, the tools) for Node takes seconds on a loaded machine.
  }, 30_000)
})
