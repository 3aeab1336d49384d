// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import type { DeletedEntry, FileActionResult } from '../../core/protocol'
import { createFileTree } from './create-file-tree'
import { createWorkspaceChanges } from './create-workspace-changes'
import { FileTreeView } from './file-tree'
import * as chrome from './file-tree-chrome'
import { makeFakeWorkspace, mount, press, PROJECT, ROOT } from './testing/workspace-harness'
import type { FileApi } from './workspace-api'

function setup(files: Record<string, string>) {
  const workspace = makeFakeWorkspace(files)
  const unused = () => Promise.reject(new Error('not used here'))
  const api: FileApi = {
    readPreviewFile: workspace.api.readPreviewFile,
    createFile: vi.fn(unused),
    createFolder: vi.fn(unused),
    moveFile: vi.fn(unused),
    writeUploaded: vi.fn(unused),
    zipProject: vi.fn(unused),
    renameFile: vi.fn(async ({ path, name }): Promise<FileActionResult> => {
      const to = `${path.slice(0, path.lastIndexOf('/'))}/${name}`
      workspace.change({ type: 'remove', path })
      workspace.change({ type: 'write', path: to }, files[path])
      return { path: to, type: 'file' }
    }),
    deleteFile: vi.fn(async ({ path }): Promise<DeletedEntry> => {
      workspace.change({ type: 'remove', path })
      return { token: 't1', path, type: 'file', files: 1 }
    }),
    restoreDeleted: vi.fn(async (): Promise<FileActionResult> => {
      workspace.change({ type: 'write', path: '/workspace/a.txt' }, files['/workspace/a.txt'])
      return { path: '/workspace/a.txt', type: 'file' }
    }),
  }
  const container = mount(() => {
    const changes = createWorkspaceChanges(workspace.listen, () => PROJECT)
    const tree = createFileTree({ api: workspace.api, projectID: PROJECT, root: ROOT, changes })
    const actions = chrome.createFileActions({ api, projectID: PROJECT, root: ROOT, tree, sessionID: () => undefined })
    return <FileTreeView tree={tree} selected={undefined} onOpen={() => {}} files={{ actions, chrome }} root={ROOT} />
  })
  const item = (name: string) => container.querySelector<HTMLElement>(`[role="treeitem"][data-path="${ROOT}/${name}"]`)
  const field = (label: string) => container.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`)
  const notice = () => container.querySelector('[role="status"][aria-label="Files notice"]')?.textContent ?? ''
  return { api, container, item, field, notice }
}

describe('the file tree’s actions', () => {
  it('F2 renames inline; a taken name is refused with a message before anything is sent, Escape gives the row back', async () => {
    const { api, container, item, field } = setup({ '/workspace/a.txt': 'a', '/workspace/b.txt': 'b' })
    await vi.waitFor(() => expect(item('a.txt')).not.toBeNull())
    item('a.txt')!.focus()
    press(item('a.txt')!, 'F2')
    await vi.waitFor(() => expect(document.activeElement).toBe(field('Rename a.txt')))
    field('Rename a.txt')!.value = 'B.txt'
    field('Rename a.txt')!.form!.requestSubmit()
    await vi.waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('"B.txt" already exists here.'))
    expect(api.renameFile).not.toHaveBeenCalled()
    press(field('Rename a.txt')!, 'Escape')
    await vi.waitFor(() => expect(document.activeElement).toBe(item('a.txt')))

    press(item('a.txt')!, 'F2')
    await vi.waitFor(() => expect(field('Rename a.txt')).not.toBeNull())
    field('Rename a.txt')!.value = 'c.txt'
    field('Rename a.txt')!.form!.requestSubmit()
    await vi.waitFor(() => expect(document.activeElement).toBe(item('c.txt')))
    expect(api.renameFile).toHaveBeenCalledWith({ projectID: PROJECT, path: '/workspace/a.txt', name: 'c.txt' })
  })

  it('Delete removes the row and says so; Ctrl+Z in the tree brings it back', async () => {
    const { api, item, notice } = setup({ '/workspace/a.txt': 'a', '/workspace/b.txt': 'b' })
    await vi.waitFor(() => expect(item('a.txt')).not.toBeNull())
    item('a.txt')!.focus()
    press(item('a.txt')!, 'Delete')
    await vi.waitFor(() => expect(item('a.txt')).toBeNull())
    // The row goes when the removal is announced; the notice comes with the action's answer.
    await vi.waitFor(() => expect(notice()).toContain('Deleted a.txt · Undo'))
    await vi.waitFor(() => expect(document.activeElement).toBe(item('b.txt')))
    press(item('b.txt')!, 'z', { ctrlKey: true })
    await vi.waitFor(() => expect(document.activeElement).toBe(item('a.txt')))
    expect(api.restoreDeleted).toHaveBeenCalledWith({ token: 't1' })
    expect(notice()).toContain('Restored a.txt')
  })

  it('Shift+F10 opens the row’s menu on its first item; Escape closes it and returns to the row', async () => {
    const { container, item } = setup({ '/workspace/a.txt': 'a' })
    await vi.waitFor(() => expect(item('a.txt')).not.toBeNull())
    item('a.txt')!.focus()
    press(item('a.txt')!, 'F10', { shiftKey: true })
    const menu = () => container.querySelector<HTMLElement>('[role="menu"][aria-label="Actions for a.txt"]')
    await vi.waitFor(() => expect(menu()).not.toBeNull())
    const items = [...menu()!.querySelectorAll('[role="menuitem"]')].map((element) => element.textContent)
    expect(items).toEqual(['Open', 'Rename', 'Move to…', 'Download', 'Delete'])
    expect(document.activeElement?.textContent).toBe('Open')
    press(document.activeElement!, 'Escape')
    await vi.waitFor(() => expect(menu()).toBeNull())
    expect(document.activeElement).toBe(item('a.txt'))
  })
})
