import { describe, expect, it, vi } from 'vitest'
import type { Project, SessionInfo } from '../../../core/schema'
import { makeDraftStore } from '../../store/draft-store'
import { makeOpenTarget } from './open-target'

const project = (id: string, name: string): Project => ({ id, name, directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } })

function setup(openProject: (projectID: string) => Promise<Project>) {
  const drafts = makeDraftStore()
  const calls = { switched: vi.fn(), opened: vi.fn(), notice: vi.fn(), remembered: vi.fn(), focused: vi.fn() }
  const store = {
    api: { openProject: vi.fn(openProject) },
    drafts,
    remember: calls.remembered,
    attempt: async <T>(_what: string, action: () => Promise<T>) => action().catch(() => undefined),
  }
  const open = makeOpenTarget({
    projectID: 'prj_here',
    store: store as never,
    switchProject: calls.switched,
    open: calls.opened,
    setNotice: calls.notice,
    focusPrompt: calls.focused,
  })
  return { open, drafts, store, calls }
}

describe('makeOpenTarget', () => {
  it('opens a fork of this project here, with its notice and prompt', async () => {
    const { open, drafts, calls, store } = setup(async () => project('prj_here', 'Here'))
    const fork = { id: 'ses_fork', projectID: 'prj_here', title: 'T (fork #1)' } as SessionInfo
    await open({ session: fork, notice: 'Branched into “T (fork #1)”', prompt: 'try again' })
    expect(store.api.openProject).not.toHaveBeenCalled()
    expect(drafts.get('ses_fork').text).toBe('try again')
    expect(calls.notice).toHaveBeenCalledWith({ sessionID: 'ses_fork', text: 'Branched into “T (fork #1)”' })
    expect(calls.remembered).toHaveBeenCalledWith(fork)
    expect(calls.opened).toHaveBeenCalledWith('ses_fork')
    expect(calls.focused).toHaveBeenCalled()
  })

  it('switches to the project of a fork that got its own, handing over what to open', async () => {
    const other = project('prj_fork', 'Here (fork)')
    const { open, calls, store } = setup(async () => other)
    await open({ session: { id: 'ses_fork', projectID: 'prj_fork', title: 'T' } as SessionInfo, notice: 'Branched into “T”' })
    expect(store.api.openProject).toHaveBeenCalledWith('prj_fork')
    expect(calls.switched).toHaveBeenCalledWith(other, { sessionID: 'ses_fork', notice: 'Branched into “T”' })
    expect(calls.opened).not.toHaveBeenCalled()
  })

  it('stays put when the other project cannot be opened', async () => {
    const { open, calls } = setup(async () => Promise.reject(new Error('gone')))
    await open({ session: { id: 'ses_x', projectID: 'prj_gone', title: 'T' } as SessionInfo })
    expect(calls.switched).not.toHaveBeenCalled()
    expect(calls.opened).not.toHaveBeenCalled()
  })
})
