import { describe, expect, it } from 'vitest'
import type { PartOf } from '../core/schema'
import { makeBuilders } from '../testing/fixture-builders'
import { mergeMessage, mergePart, mergeRows, mergeSession } from './merge'

describe('merging conflicting versions of a row', () => {
  it('gives a session the newer fields, keeps a real title over the placeholder, and is the same in either order', () => {
    const build = makeBuilders()
    const base = build.session()
    const titled = { ...base, title: 'Fix the login bug', time: { ...base.time, updated: base.time.updated + 5 } }
    const archived = { ...base, cost: 3, time: { ...base.time, updated: base.time.updated + 9, archived: base.time.updated + 9 } }
    const merged = mergeSession(titled, archived)
    expect(merged).toEqual(mergeSession(archived, titled))
    expect(merged.title).toBe('Fix the login bug')
    expect(merged.time).toEqual({ created: base.time.created, updated: base.time.updated + 9, archived: base.time.updated + 9 })
    expect(merged.cost).toBe(3)
    // A title set later on the other side wins as the newer field.
    const renamed = { ...archived, title: 'Login bug, take two', time: { ...archived.time, updated: archived.time.updated + 1 } }
    expect(mergeSession(titled, renamed).title).toBe('Login bug, take two')
  })

  it('picks one session when both changed at the same time, the same one on every device', () => {
    const build = makeBuilders()
    const base = build.session()
    const one = { ...base, title: 'One' }
    const two = { ...base, title: 'Two' }
    expect(mergeSession(one, two)).toEqual(mergeSession(two, one))
    expect(mergeRows('session', [one, two, base])).toEqual(mergeRows('session', [base, two, one]))
  })

  it('keeps the completed version of a message, and a summary only one side had', () => {
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    const running = build.assistant(session.id, user.id, { time: { created: 1 }, finish: undefined })
    const done = { ...running, time: { created: 1, completed: 7 }, finish: 'stop' as const }
    expect(mergeMessage(running, done)).toEqual(done)
    expect(mergeMessage(done, running)).toEqual(done)
    const summarised = { ...user, summary: { title: 'Login', diffs: [] } }
    expect(mergeMessage(user, summarised)).toEqual(summarised)
    expect(mergeMessage(summarised, user)).toEqual(summarised)
  })

  it('keeps an undone compaction, the later act', () => {
    const part: PartOf<'compaction'> = { id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1', type: 'compaction', auto: true }
    const undone = { ...part, undone: 5 }
    expect(mergePart(part, undone)).toEqual(undone)
    expect(mergePart(undone, part)).toEqual(undone)
  })
})
