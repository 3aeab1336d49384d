// @vitest-environment happy-dom
import { EditorView } from '@codemirror/view'
import { describe, expect, it, vi } from 'vitest'
import { createWorkspaceChanges } from './create-workspace-changes'
import { FilesView } from './files-view'
import { makeFakeWorkspace, mount, press, PROJECT, ROOT } from './testing/workspace-harness'

function setup(files: Record<string, string | Uint8Array>) {
  const workspace = makeFakeWorkspace(files)
  const container = mount(() => (
    <FilesView api={workspace.api} projectID={PROJECT} root={ROOT} changes={createWorkspaceChanges(workspace.listen, () => PROJECT)} sessionID="ses_1" />
  ))
  const item = async (name: string) => {
    let found: HTMLElement | undefined
    await vi.waitFor(() => {
      found = [...container.querySelectorAll<HTMLElement>('[role="treeitem"]')].find((element) => element.querySelector('.tree-name')?.textContent === name)
      expect(found).toBeDefined()
    })
    return found!
  }
  const open = async (name: string) => {
    ;(await item(name)).click()
    // CodeMirror loads on the first open; its first import may take a while on a loaded machine.
    await vi.waitFor(() => expect(editorOf(name)).toBeDefined(), { timeout: 10_000 })
    return editorOf(name)!
  }
  const panel = (name: string) => container.querySelector<HTMLElement>(`.editor-file[data-path="${ROOT}/${name}"]`)
  const editorOf = (name: string) => {
    const content = panel(name)?.querySelector<HTMLElement>('.cm-content')
    return content ? EditorView.findFromDOM(content) ?? undefined : undefined
  }
  const tab = (name: string) => container.querySelector<HTMLElement>(`[role="tab"][data-path="${ROOT}/${name}"]`)!
  const type = (view: EditorView, text: string) => view.dispatch({ changes: { from: view.state.doc.length, insert: text } })
  const save = (view: EditorView) => press(view.contentDOM, 's', { ctrlKey: true, metaKey: navigator.platform.startsWith('Mac') })
  const button = (name: string) => [...container.querySelectorAll<HTMLButtonElement>('button')].find((element) => element.textContent?.trim() === name)
  return { workspace, container, item, open, panel, tab, type, save, button }
}

describe('the editor in the Files tab', () => {
  it('opens files as tabs, marks unsaved edits, and saves with Ctrl+S as the session’s change', async () => {
    const { workspace, open, tab, type, save, container } = setup({ '/workspace/a.js': 'let a = 1\n', '/workspace/b.py': 'x = 1\n' })
    const a = await open('a.js')
    await open('b.py')
    expect([...container.querySelectorAll('[role="tab"]')].map((element) => element.textContent)).toEqual(['a.js', 'b.py'])
    expect(tab('b.py').getAttribute('aria-selected')).toBe('true')
    expect(container.querySelector('[aria-label="Close a.js"]')).not.toBeNull()
    tab('a.js').click()
    type(a, 'let b = 2\n')
    await vi.waitFor(() => expect(tab('a.js').getAttribute('aria-label')).toBe('a.js, unsaved'))
    expect(tab('a.js').querySelector('.editor-unsaved')).not.toBeNull()
    save(a)
    await vi.waitFor(() => expect(tab('a.js').getAttribute('aria-label')).toBe('a.js'))
    expect(tab('a.js').querySelector('.editor-unsaved')).toBeNull()
    expect(workspace.api.saveFile).toHaveBeenCalledWith({
      projectID: PROJECT,
      path: '/workspace/a.js',
      content: 'let a = 1\nlet b = 2\n',
      expected: 'let a = 1\n',
      sessionID: 'ses_1',
    })
    expect(container.querySelector('[role="status"]')?.textContent).toBe('Saved a.js')
  })

  it('moves between open files with the arrow keys, and closing one moves to its neighbour', async () => {
    const { open, tab, container } = setup({ '/workspace/a.js': 'a\n', '/workspace/b.js': 'b\n' })
    await open('a.js')
    await open('b.js')
    tab('b.js').focus()
    press(tab('b.js'), 'ArrowRight')
    expect(tab('a.js').getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(tab('a.js'))
    expect(container.querySelector<HTMLElement>(`#${CSS.escape(tab('a.js').getAttribute('aria-controls')!)}`)?.hidden).toBe(false)
    container.querySelector<HTMLButtonElement>('[aria-label="Close a.js"]')!.click()
    await vi.waitFor(() => expect(container.querySelectorAll('[role="tab"]')).toHaveLength(1))
    expect(tab('b.js').getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(tab('b.js'))
  })

  it('highlights the file by its language', async () => {
    const { open, panel } = setup({ '/workspace/a.js': 'const answer = 42\n' })
    await open('a.js')
    await vi.waitFor(() => expect(panel('a.js')?.querySelector('.tok-keyword')?.textContent).toBe('const'), { timeout: 10_000 })
  })

  it('follows the disk when the file changes and there are no unsaved edits', async () => {
    const { workspace, open, container } = setup({ '/workspace/a.js': 'old\n' })
    const a = await open('a.js')
    workspace.change({ type: 'write', path: '/workspace/a.js' }, 'new from the agent\n')
    await vi.waitFor(() => expect(a.state.doc.toString()).toBe('new from the agent\n'))
    expect(container.querySelector('[role="alert"]')).toBeNull()
  })

  it('keeps unsaved edits when the file changes on disk, and offers keep, take or diff', async () => {
    const { workspace, open, type, container, button, tab } = setup({ '/workspace/a.js': 'line\n' })
    const a = await open('a.js')
    type(a, 'mine\n')
    workspace.change({ type: 'write', path: '/workspace/a.js' }, 'line\ntheirs\n')
    await vi.waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toContain('changed on disk while you had unsaved edits'))
    expect(a.state.doc.toString()).toBe('line\nmine\n')

    button('Show diff')!.click()
    await vi.waitFor(() => expect(container.querySelector('[role="alert"] .diff-view')).not.toBeNull())
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('-theirs')
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('+mine')

    button('Keep mine')!.click()
    await vi.waitFor(() => expect(container.querySelector('[role="alert"]')).toBeNull())
    expect(await workspace.api.readFile({ projectID: PROJECT, path: '/workspace/a.js' })).toMatchObject({ text: 'line\nmine\n' })
    expect(tab('a.js').getAttribute('aria-label')).toBe('a.js')

    type(a, 'more\n')
    workspace.change({ type: 'write', path: '/workspace/a.js' }, 'agent again\n')
    await vi.waitFor(() => expect(button('Take theirs')).toBeDefined())
    button('Take theirs')!.click()
    await vi.waitFor(() => expect(a.state.doc.toString()).toBe('agent again\n'))
    expect(container.querySelector('[role="alert"]')).toBeNull()
    expect(tab('a.js').getAttribute('aria-label')).toBe('a.js')
  })

  it('opens a binary file read-only, saying why', async () => {
    const { item, container } = setup({ '/workspace/logo.png': new Uint8Array([0x89, 0, 1, 2]) })
    ;(await item('logo.png')).click()
    await vi.waitFor(() => expect(container.querySelector('.editor-read-only')?.textContent).toBe("Binary file, 4 bytes: it can't be edited here."))
    expect(container.querySelector('.cm-content')).toBeNull()
  })
})
