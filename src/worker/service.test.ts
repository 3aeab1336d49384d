import { describe, expect, it } from 'vitest'
import { TabcodeDatabase } from '../store/database'
import type { SessionEvent } from '../core/event'
import { makeBuilders } from '../testing/fixture-builders'
import { openDatabase } from '../store/open-database'
import { PROTOCOL_VERSION } from '../core/protocol'
import { createService } from './service'
import { fromWire, toWire } from '../core/wire'

function makeClient() {
  const events: SessionEvent[] = []
  const service = createService({
    open: () => openDatabase(() => new TabcodeDatabase(`service-${crypto.randomUUID()}`)),
    emit: (event) => events.push(event),
    version: '9.9.9',
  })
  return { api: fromWire(toWire(service) as never), events }
}

describe('worker service over the wire', () => {
  it('answers hello with its protocol and refuses work until the storage is open', async () => {
    const { api } = makeClient()
    expect(await api.hello()).toEqual({ protocol: PROTOCOL_VERSION, version: '9.9.9' })
    await expect(api.listSessions({})).rejects.toMatchObject({ name: 'NotReadyError' })
  })

  it('starts once with a default project and then serves the session operations', async () => {
    const { api, events } = makeClient()
    const [first, second] = await Promise.all([api.start(), api.start()])
    expect(first).toEqual(second)
    if (first.status !== 'ready') throw new Error('expected ready')
    const session = await api.createSession({})
    expect(session.projectID).toBe(first.project.id)
    await api.renameSession(session.id, 'Wire test')
    expect((await api.listSessions({})).items.map((item) => item.title)).toEqual(['Wire test'])
    const child = await api.createSession({ parentID: session.id })
    expect((await api.children(session.id)).map((item) => item.id)).toEqual([child.id])
    await api.archiveSession(session.id, true)
    expect((await api.listSessions({})).items).toEqual([])
    expect(await api.removeSession(session.id)).toEqual({ removed: [child.id, session.id] })
    expect(events.map((event) => event.type)).toContain('session.deleted')
  })

  it('keeps the name and data of errors across the boundary', async () => {
    const { api } = makeClient()
    await api.start()
    await expect(api.getSession('ses_unknown')).rejects.toMatchObject({
      name: 'NotFoundError',
      message: 'session ses_unknown was not found',
      data: { kind: 'session', id: 'ses_unknown' },
    })
    await expect(api.writeFixture({ sessions: [{ id: 'bad' }] } as never)).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('sessions.0'),
    })
  })

  it('seeds history through the test hook and pages it back', async () => {
    const { api } = makeClient()
    await api.start()
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    const reply = build.assistant(session.id, user.id)
    await api.writeFixture({ sessions: [session], messages: [user, reply], parts: [build.text(user, 'hi'), build.text(reply, 'hello')] })
    const page = await api.pageMessages({ sessionID: session.id })
    expect(page.messages.map(({ parts }) => parts.map((part) => (part.type === 'text' ? part.text : '')))).toEqual([['hi'], ['hello']])
  })

  it('reports a storage that cannot open instead of starting', async () => {
    const service = createService({
      open: async () => ({ status: 'failed', problem: { type: 'blocked', message: 'held by another tab' } }),
      emit: () => {},
      version: '1',
    })
    const api = fromWire(toWire(service) as never)
    expect(await api.start()).toEqual({ status: 'failed', problem: { type: 'blocked', message: 'held by another tab' } })
    await expect(api.listSessions({})).rejects.toMatchObject({ name: 'NotReadyError' })
  })
})
