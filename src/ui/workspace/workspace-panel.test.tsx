// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import type { WorkspaceInfo } from '../../core/protocol'
import { createWorkspaceChanges } from './create-workspace-changes'
import type { PreviewServer } from './preview-pane'
import { makeFakeWorkspace, mount, press, PROJECT, ROOT } from './testing/workspace-harness'
import { WorkspacePanel, type WorkspacePanelProps } from './workspace-panel'

const INFO: WorkspaceInfo = { projectID: PROJECT, backend: 'local', root: ROOT, reason: 'This browser cannot run WebContainer.' }

function setup(overrides: Partial<WorkspacePanelProps> = {}, options: { detached?: boolean } = {}) {
  const workspace = makeFakeWorkspace(
    { '/workspace/index.html': '<h1>hi</h1>\n' },
    { diffs: [{ file: 'index.html', status: 'added', additions: 1, deletions: 0, patch: '@@ -0,0 +1 @@\n+<h1>hi</h1>' }] },
  )
  const onHide = vi.fn()
  const container = mount(() => (
    <WorkspacePanel
      id="workspace"
      api={workspace.api}
      projectID={PROJECT}
      info={'info' in overrides ? overrides.info : INFO}
      changes={createWorkspaceChanges(workspace.listen, () => PROJECT)}
      sessionID="ses_1"
      calls={[]}
      turns={[]}
      changeMark="0"
      previews={[]}
      onHide={onHide}
      {...overrides}
    />
  ), options)
  const tabs = () => [...container.querySelectorAll<HTMLElement>('[role="tab"]')]
  const tab = (name: string) => tabs().find((element) => element.textContent?.startsWith(name))!
  const panelOf = (element: HTMLElement) => container.querySelector<HTMLElement>(`#${element.getAttribute('aria-controls')}`)!
  return { workspace, container, tabs, tab, panelOf, onHide }
}

describe('the workspace panel', () => {
  it('is a complementary region with a tablist of four tabs, Files first', () => {
    const { container, tabs, tab, panelOf } = setup()
    expect(container.querySelector('aside')!.getAttribute('aria-label')).toBe('Workspace')
    expect(container.querySelector('[role="tablist"]')!.getAttribute('aria-label')).toBe('Workspace views')
    expect(tabs().map((element) => element.textContent)).toEqual(['Files', 'Terminal', 'Changes', 'Preview'])
    expect(tab('Files').getAttribute('aria-selected')).toBe('true')
    expect(tabs().map((element) => element.tabIndex)).toEqual([0, -1, -1, -1])
    const panel = panelOf(tab('Files'))
    expect(panel.getAttribute('role')).toBe('tabpanel')
    expect(panel.getAttribute('aria-labelledby')).toBe(tab('Files').id)
    expect(panel.hidden).toBe(false)
    expect(panelOf(tab('Terminal')).hidden).toBe(true)
  })

  it('moves between tabs with the arrow keys, Home and End, wrapping around', () => {
    const { tab, panelOf } = setup()
    tab('Files').focus()
    press(tab('Files'), 'ArrowRight')
    expect(document.activeElement).toBe(tab('Terminal'))
    expect(tab('Terminal').getAttribute('aria-selected')).toBe('true')
    expect(tab('Terminal').tabIndex).toBe(0)
    expect(tab('Files').tabIndex).toBe(-1)
    expect(panelOf(tab('Terminal')).hidden).toBe(false)
    expect(panelOf(tab('Files')).hidden).toBe(true)
    press(tab('Terminal'), 'End')
    expect(document.activeElement).toBe(tab('Preview'))
    press(tab('Preview'), 'ArrowRight')
    expect(document.activeElement).toBe(tab('Files'))
    press(tab('Files'), 'ArrowLeft')
    expect(document.activeElement).toBe(tab('Preview'))
    press(tab('Preview'), 'Home')
    expect(document.activeElement).toBe(tab('Files'))
    expect(tab('Files').getAttribute('aria-selected')).toBe('true')
  })

  it('shows the files, and a file picked in the tree opens in the editor', async () => {
    const { container } = setup()
    await vi.waitFor(() => expect(container.querySelector('[role="treeitem"]')).not.toBeNull())
    container.querySelector<HTMLElement>('[role="treeitem"]')!.click()
    // The editor loads on first open (CodeMirror is a separate chunk): its first load may take a while.
    await vi.waitFor(() => expect(container.querySelector('.cm-content')?.textContent).toBe('<h1>hi</h1>'), { timeout: 10_000 })
    expect(container.querySelector('[role="tab"][aria-selected="true"][data-path]')?.textContent).toBe('index.html')
  })

  it("reads the session's changes when the Changes tab opens", async () => {
    const { tab, panelOf, workspace } = setup()
    expect(workspace.api.sessionDiffs).not.toHaveBeenCalled()
    tab('Changes').click()
    await vi.waitFor(() => expect(panelOf(tab('Changes')).querySelector('.diff-name')?.textContent).toBe('index.html'))
    expect(workspace.api.sessionDiffs).toHaveBeenCalledWith('ses_1')
  })

  it("shows the user's saved edits apart from the agent's changes", async () => {
    const { tab, panelOf, workspace } = setup()
    workspace.api.userEdits.mockResolvedValue([{ file: 'app.js', status: 'modified', additions: 1, deletions: 1, patch: '@@ -1 +1 @@\n-a\n+b' }])
    tab('Changes').click()
    const panel = panelOf(tab('Changes'))
    await vi.waitFor(() => expect(panel.querySelector('[aria-label="Your edits in this session"] .diff-name')?.textContent).toBe('app.js'))
    expect(panel.querySelector('[aria-label="Changes in this session"] .diff-name')?.textContent).toBe('index.html')
    expect(workspace.api.userEdits).toHaveBeenCalledWith('ses_1')
  })

  it('names the backend and describes why', () => {
    const { container } = setup()
    const badge = container.querySelector<HTMLElement>('.backend-badge .badge')!
    expect(badge.textContent).toBe('Offline workspace')
    const description = document.getElementById(badge.getAttribute('aria-describedby')!)!
    expect(description.getAttribute('role')).toBe('tooltip')
    expect(description.textContent).toBe('This browser cannot run WebContainer.')
  })

  it('can be hidden', () => {
    const { container, onHide } = setup()
    container.querySelector<HTMLButtonElement>('button[aria-label="Hide workspace"]')!.click()
    expect(onHide).toHaveBeenCalled()
  })

  it('says why there are no files when the workspace cannot be reached', () => {
    const { container } = setup({ info: undefined, problem: 'not implemented yet' })
    expect(container.textContent).toContain("Couldn't reach the workspace: not implemented yet")
    expect(container.querySelector('.backend-badge')).toBeNull()
  })

  it('previews a served port, with a way out to a new tab', () => {
    const previews: PreviewServer[] = [{ port: 5173, url: 'https://abc.local-credentialless.webcontainer-api.io' }]
    // Detached, so the frame never loads; Solid's delegated clicks do not reach a detached tree, hence initialTab.
    const { tab, panelOf } = setup({ previews, initialTab: 'preview' }, { detached: true })
    expect(tab('Preview').getAttribute('aria-selected')).toBe('true')
    const panel = panelOf(tab('Preview'))
    expect(panel.querySelector('iframe')!.getAttribute('title')).toBe('Preview of port 5173')
    expect(panel.querySelector('a')!.getAttribute('href')).toBe(previews[0]!.url)
  })
})
