// @vitest-environment happy-dom
import { createSignal } from 'solid-js'
import { createStore } from 'solid-js/store'
import { describe, expect, it, vi } from 'vitest'
import type { Message, Part } from '../../core/schema'
import type { WorkspaceInfo } from '../../core/protocol'
import type { SessionStore } from '../store/create-session-store'
import { SessionStoreContext } from '../store/session-store-context'
import type { PanelState } from './create-panel-state'
import { makeFakeWorkspace, mount, PROJECT, ROOT } from './testing/workspace-harness'
import { WorkspaceDock } from './workspace-dock'

const assistant: Message = {
  id: 'msg_a',
  sessionID: 'ses_1',
  role: 'assistant',
  parentID: 'msg_u',
  time: { created: 2 },
  modelID: 'm',
  providerID: 'p',
  agent: 'build',
  path: { cwd: ROOT, root: ROOT },
  cost: 0,
  tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
}
const bash: Part = {
  id: 'prt_1',
  sessionID: 'ses_1',
  messageID: 'msg_a',
  type: 'tool',
  callID: 'c1',
  tool: 'bash',
  state: { status: 'running', input: { command: 'ls -la' }, metadata: { output: 'README.md\n' }, time: { start: 1 } },
}

/** Only what the dock reads from the session store: the open session's id, messages and parts. */
function fakeSessionStore(): SessionStore {
  const [state] = createStore({ messages: [assistant], parts: { msg_a: [bash] } as Record<string, Part[]> })
  const store = {
    current: { id: () => 'ses_1', messages: () => state.messages },
    partsOf: (messageID: string) => state.parts[messageID] ?? [],
  }
  return store as unknown as SessionStore
}

function setup(options: { open: boolean; info?: () => WorkspaceInfo | undefined }) {
  const workspace = makeFakeWorkspace({ '/workspace/README.md': '# hi\n' }, { info: { reason: 'Not isolated.' } })
  const [open, setOpen] = createSignal(options.open)
  const state: PanelState = { open, show: () => setOpen(true), hide: () => setOpen(false), toggle: () => setOpen(!open()) }
  const container = mount(() => (
    <SessionStoreContext.Provider value={fakeSessionStore()}>
      <WorkspaceDock connection={workspace} projectID={PROJECT} state={state} {...(options.info ? { info: options.info } : {})} />
    </SessionStoreContext.Provider>
  ))
  const badge = () => container.querySelector('.backend-badge .badge')?.textContent
  return { workspace, container, badge }
}

describe('the workspace dock', () => {
  it('is a rail with a "Show workspace" button while hidden, and asks the worker nothing yet', async () => {
    const { container, workspace } = setup({ open: false })
    const show = container.querySelector<HTMLButtonElement>('button[aria-label="Show workspace"]')!
    expect(show.getAttribute('aria-expanded')).toBe('false')
    expect(show.getAttribute('aria-controls')).toBe('workspace')
    expect(container.querySelector('aside')).toBeNull()
    expect(workspace.api.workspaceInfo).not.toHaveBeenCalled()
    show.click()
    // The panel's content mounts after the first frame (issue 18's first visit), so it comes a moment later.
    await vi.waitFor(() => expect(container.querySelector('aside')).not.toBeNull())
    expect(container.querySelector('button[aria-label="Show workspace"]')).toBeNull()
  })

  it('shows the backend, the files, and the bash calls of the open session', async () => {
    const { container, badge } = setup({ open: true })
    await vi.waitFor(() => expect(badge()).toBe('Offline workspace'))
    await vi.waitFor(() => expect(container.querySelector('[role="treeitem"]')?.textContent).toBe('README.md'))
    const terminalTab = [...container.querySelectorAll<HTMLElement>('[role="tab"]')].find((tab) => tab.textContent?.startsWith('Terminal'))!
    // The session's calls are gathered only while the terminal shows (a long session pays nothing otherwise).
    expect(terminalTab.textContent).toBe('Terminal')
    terminalTab.click()
    expect(terminalTab.textContent).toBe('Terminal 1')
    expect(container.querySelector('.terminal-command')!.textContent).toBe('$ ls -la')
    expect(container.querySelector('.terminal-output')!.textContent).toBe('README.md\n')
  })

  it('asks again which backend serves when the root changes, and takes what the page learnt at start', async () => {
    const [hint, setHint] = createSignal<WorkspaceInfo>()
    const { workspace, badge } = setup({ open: true, info: hint })
    await vi.waitFor(() => expect(badge()).toBe('Offline workspace'))
    workspace.api.workspaceInfo.mockResolvedValueOnce({ projectID: PROJECT, backend: 'webcontainer', root: ROOT })
    workspace.change({ type: 'mkdir', path: ROOT })
    await vi.waitFor(() => expect(badge()).toBe('WebContainer'))
    setHint({ projectID: PROJECT, backend: 'local', root: ROOT, reason: 'WebContainer stopped.' })
    expect(badge()).toBe('Offline workspace')
  })
})
