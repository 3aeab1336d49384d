import { describe, expect, it } from 'vitest'
import type { PermissionAsk } from '../../core/schema'
import type { NotificationSettings } from '../../core/settings'
import { decideNotification, type NoticeContext } from './decide-notification'
import type { Happening } from './turn-watch'

const SESSION = 'ses_1'
const ON: NotificationSettings = { enabled: true, turnEnded: true, waiting: true, error: true }
const HIDDEN: NoticeContext = { visibility: 'hidden', settings: ON, permission: 'granted', sessionTitle: 'Fix the login' }

const finished: Happening = { type: 'turn-ended', sessionID: SESSION, outcome: 'finished' }
const stopped: Happening = { type: 'turn-ended', sessionID: SESSION, outcome: 'stopped' }
const failed: Happening = {
  type: 'turn-ended',
  sessionID: SESSION,
  outcome: 'failed',
  error: { name: 'APIError', data: { message: 'Rate limited', statusCode: 429, isRetryable: false } },
}
const ask = (overrides: Partial<PermissionAsk>): Happening => ({
  type: 'waiting',
  sessionID: SESSION,
  ask: { id: 'per_1', sessionID: SESSION, projectID: 'prj_1', messageID: 'msg_1', permission: 'bash', patterns: ['npm test'], always: [], metadata: { command: 'npm test' }, time: { created: 1 }, ...overrides },
})
const permission = ask({})
const question = ask({ permission: 'question', metadata: { questions: [{ question: 'Which colour should the button be?', header: 'Colour', options: [] }] } })

describe('decideNotification', () => {
  it('says how the turn ended, with the session title, tagged per session and kind', () => {
    expect(decideNotification(finished, HIDDEN)).toEqual({ title: '“Fix the login” finished', body: 'The turn is done.', tag: `tabcode:${SESSION}:turnEnded` })
    expect(decideNotification(stopped, HIDDEN)).toMatchObject({ title: '“Fix the login” stopped', tag: `tabcode:${SESSION}:turnEnded` })
    expect(decideNotification(failed, HIDDEN)).toEqual({ title: '“Fix the login” failed', body: 'Rate limited', tag: `tabcode:${SESSION}:error` })
  })

  it('says what waits: the question itself, or what the permission is for', () => {
    expect(decideNotification(question, HIDDEN)).toEqual({ title: '“Fix the login” asks a question', body: 'Which colour should the button be?', tag: `tabcode:${SESSION}:waiting` })
    expect(decideNotification(permission, HIDDEN)).toEqual({ title: '“Fix the login” needs permission', body: 'Allow running this command?', tag: `tabcode:${SESSION}:waiting` })
  })

  it('tells nothing while the tab is in view: the user sees it there', () => {
    for (const happening of [finished, failed, permission]) expect(decideNotification(happening, { ...HIDDEN, visibility: 'visible' })).toBeUndefined()
  })

  it('tells nothing with the master switch off, whatever the kinds say', () => {
    for (const happening of [finished, failed, question]) expect(decideNotification(happening, { ...HIDDEN, settings: { ...ON, enabled: false } })).toBeUndefined()
  })

  it('each kind has its own switch; a failed turn is the error kind, not the ended one', () => {
    const without = (kind: keyof NotificationSettings) => ({ ...HIDDEN, settings: { ...ON, [kind]: false } })
    expect(decideNotification(finished, without('turnEnded'))).toBeUndefined()
    expect(decideNotification(stopped, without('turnEnded'))).toBeUndefined()
    expect(decideNotification(failed, without('turnEnded'))).toBeDefined()
    expect(decideNotification(failed, without('error'))).toBeUndefined()
    expect(decideNotification(finished, without('error'))).toBeDefined()
    expect(decideNotification(question, without('waiting'))).toBeUndefined()
    expect(decideNotification(permission, without('waiting'))).toBeUndefined()
  })

  it('tells nothing the browser would refuse to show', () => {
    for (const state of ['default', 'denied', 'unsupported'] as const) expect(decideNotification(finished, { ...HIDDEN, permission: state })).toBeUndefined()
  })

  it('keeps a long title short enough for the system to show, and names an untitled session', () => {
    const notice = decideNotification(finished, { ...HIDDEN, sessionTitle: 'x'.repeat(300) })
    expect(notice!.title.length).toBeLessThanOrEqual(80)
    expect(notice!.title).toContain('…')
    expect(decideNotification(finished, { ...HIDDEN, sessionTitle: '  ' })!.title).toBe('“Untitled session” finished')
  })
})
