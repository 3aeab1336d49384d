import { describe, expect, it } from 'vitest'
import { TabcodeDatabase } from '../store/database'
import { openDatabase } from '../store/open-database'
import { createDexieStorage } from '../store/dexie-storage'
import { createLocalWorkspace } from '../workspace/local/local-workspace'
import { makeBuilders } from '../testing/fixture-builders'
import { createService, type ServiceOptions } from './service'
import { fromWire, toWire } from '../core/wire'

/** What the browser's `import()` throws for a chunk the network can't give and no cache holds. */
const offline = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/engine-x.js'))

async function startWith(importEngine: NonNullable<ServiceOptions['importEngine']>) {
  const db = new TabcodeDatabase(`offline-${crypto.randomUUID()}`)
  const service = createService({ open: () => openDatabase(() => db), emit: () => {}, version: '1', importEngine })
  const api = fromWire(toWire(service) as never)
  const started = await api.start()
  if (started.status !== 'ready') throw new Error('expected ready')
  return { api, db, project: started.project }
}

describe('the worker offline, before its engine was ever downloaded', () => {
  it('opens a session, repairing the reply a killed tab left streaming, and its stored files', async () => {
    let attempts = 0
    const { api, db, project } = await startWith(() => (attempts++, offline()))
    // A reply cut off mid-stream by a closed tab, and a project file saved on an earlier visit.
    const build = makeBuilders()
    const session = build.session({ projectID: project.id })
    const user = build.user(session.id)
    const reply = build.assistant(session.id, user.id, { time: { created: 5 }, finish: undefined })
    const text = { ...build.text(reply, 'Half of the answ'), time: { start: 6 } }
    await api.writeFixture({ sessions: [session], messages: [user, reply], parts: [text] })
    const workspace = await createLocalWorkspace({ storage: createDexieStorage(db, project.id) })
    await workspace.writeFile('/workspace/src/main.ts', 'console.log("hi")\n')

    expect(await api.openSession(session.id)).toEqual({ repaired: true })
    const repaired = (await api.pageMessages({ sessionID: session.id })).messages.find((message) => message.info.id === reply.id)
    expect(repaired!.info).toMatchObject({ error: { name: 'MessageAbortedError' }, time: { completed: expect.any(Number) } })
    expect(repaired!.parts[0]).toMatchObject({ text: 'Half of the answ', time: { end: expect.any(Number) } })

    expect(await api.workspaceInfo(project.id)).toMatchObject({ projectID: project.id, backend: 'local' })
    expect((await api.listFiles({ projectID: project.id, path: '/workspace' })).map((entry) => entry.path)).toEqual(['/workspace/src'])
    expect(await api.readFile({ projectID: project.id, path: 'src/main.ts' })).toMatchObject({ type: 'text', text: 'console.log("hi")\n' })
    expect(await api.sessionDiffs(session.id)).toEqual([])
    expect(await api.forks(session.id)).toEqual({ forks: [] })
    // The page says on every boot that WebContainer is not running yet.
    expect(await api.useLocalWorkspace('not started')).toMatchObject({ projectID: project.id, backend: 'local', reason: 'not started' })
    // None of it needed the engine: had it, the failed import would have failed the call.
    expect(attempts).toBeLessThanOrEqual(1)
  })

  it('fails what needs the engine with a named error in words, and imports it again on the next call', async () => {
    let reachable = false
    let attempts = 0
    const { api } = await startWith(() => (attempts++, reachable ? import('./engine') : offline()))
    const session = await api.createSession({})
    const prompt = () => api.prompt({ sessionID: session.id, parts: [{ type: 'text', text: 'hi' }], model: { providerID: 'p', modelID: 'm' } })
    await expect(prompt()).rejects.toMatchObject({
      name: 'EngineUnavailableError',
      message: expect.stringContaining("hasn't been downloaded yet"),
    })
    const failed = attempts
    await expect(prompt()).rejects.toMatchObject({ name: 'EngineUnavailableError' })
    expect(attempts).toBe(failed + 1)
    // Back online: the same call loads it this time.
    reachable = true
    await expect(prompt()).resolves.toMatchObject({ status: 'stored' })
    // Transforming the real engine (the AI SDK, the tools) for Node takes seconds on a loaded machine.
  }, 30_000)
})
