import { describe, expect, it } from 'vitest'
import type { PartOf } from '../core/schema'
import { makeBuilders } from '../testing/fixture-builders'
import { mergeMessage, mergePart, mergeRows, mergeSession } from './merge'

describe('merging conflicting versions of a row', () => {
  it('keeps each side’s change of a session from the version both came from, the same in either order', () => {
    const build = makeBuilders()
    const base = build.session({ title: 'Login bug' })
    const renamed = { ...base, title: 'Fix the login bug', time: { ...base.time, updated: base.time.updated + 5 } }
    const archived = { ...base, cost: 3, time: { ...base.time, updated: base.time.updated + 9, archived: base.time.updated + 9 } }
    const merged = mergeSession(base, renamed, archived)
    expect(merged).toEqual(mergeSession(base, archived, renamed))
    // The rename is kept though the archive is newer: the archiving side never touched the title.
    expect(merged.title).toBe('Fix the login bug')
    expect(merged.time).toEqual({ created: base.time.created, updated: base.time.updated + 9, archived: base.time.updated + 9 })
    expect(merged.cost).toBe(3)
    // A field both changed comes from the newer side.
    const renamedAgain = { ...archived, title: 'Login bug, take two' }
    expect(mergeSession(base, renamed, renamedAgain).title).toBe('Login bug, take two')
    expect(mergeSession(base, renamedAgain, renamed).title).toBe('Login bug, take two')
  })

  it('without the shared version takes the newer side, but never the placeholder title over a real one', () => {
    const build = makeBuilders()
    const untitled = build.session()
    const titled = { ...untitled, title: 'Fix the login bug' }
    const archived = { ...untitled, time: { ...untitled.time, updated: untitled.time.updated + 9, archived: 1 } }
    const merged = mergeSession(undefined, titled, archived)
    expect(merged).toEqual(mergeSession(undefined, archived, titled))
    expect(merged.title).toBe('Fix the login bug')
    expect(merged.time.archived).toBe(1)
  })

  it('picks one session when both changed at the same time, the same one on every device', () => {
    const build = makeBuilders()
    const base = build.session()
    const one = { ...base, title: 'One' }
    const two = { ...base, title: 'Two' }
    expect(mergeSession(base, one, two)).toEqual(mergeSession(base, two, one))
    expect(mergeRows('session', base, [one, two, base])).toEqual(mergeRows('session', base, [base, two, one]))
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
