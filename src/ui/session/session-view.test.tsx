// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import type { SessionInfo } from '../../core/schema'
import type { ForkResult } from '../../core/protocol'
import type { OpenTarget } from '../history/create-history-actions'
import { byRole, makeConversation, makeFakeApi, mountWithStore, one, settle } from '../history/testing/history-harness'
import { SessionView } from './session-view'

async function mountSession(metadata?: Record<string, unknown>) {
  const conversation = makeConversation({ turns: 1 })
  const session: SessionInfo = { ...conversation.session, ...(metadata ? { metadata } : {}) }
  const fork: ForkResult = {
    session: { ...session, id: 'ses_fork', title: 'Parser rewrite (fork #1)', metadata: undefined },
    project: { id: session.projectID, name: 'p', directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } },
    newProject: false,
  }
  const forkSession = vi.fn(async () => fork)
  const prompt = vi.fn(async () => ({ status: 'stored', messageID: 'msg_1' }))
  const api = makeFakeApi(session, conversation.history, { forkSession, prompt, listProviders: vi.fn(async () => []) })
  const onOpen = vi.fn<(target: OpenTarget) => void>()
  const mounted = await mountWithStore(api, session.id, () => <SessionView sessionID={session.id} promptID="prompt" onOpen={onOpen} />)
  return { ...mounted, session, forkSession, prompt, onOpen, fork }
}

describe('an imported session', () => {
  it('says it is read-only, disables the prompt box with the reason, and continues in a fork', async () => {
    const { root, forkSession, onOpen, fork, session } = await mountSession({ import: { hash: 'abc', source: 'link', time: 1 } })
    const banner = one(root, 'region', 'Imported session')
    expect(banner.textContent).toContain('Imported from a share link. It is read-only')
    const prompt = root.querySelector<HTMLTextAreaElement>('#prompt')!
    expect(prompt.disabled).toBe(true)
    expect(document.getElementById(prompt.getAttribute('aria-describedby')!)?.textContent).toContain('Continue in a fork to reply')
    expect(one<HTMLButtonElement>(root, 'button', 'Send').disabled).toBe(true)

    one<HTMLButtonElement>(banner, 'button', 'Continue in a fork').click()
    await settle()
    // The whole session: no branch point.
    expect(forkSession).toHaveBeenCalledWith({ sessionID: session.id })
    expect(onOpen).toHaveBeenCalledWith({ session: fork.session, notice: 'Continued in a fork: “Parser rewrite (fork #1)” is yours to prompt.' })
  })

  it('is not marked on a session of the user’s own, whose prompt box stays open', async () => {
    const { root } = await mountSession()
    expect(byRole(root, 'region', 'Imported session')).toHaveLength(0)
    expect(root.querySelector<HTMLTextAreaElement>('#prompt')!.disabled).toBe(false)
  })

  it('offers Share in the header', async () => {
    const { root } = await mountSession()
    expect(byRole(root, 'button', 'Share')).toHaveLength(1)
  })
})
