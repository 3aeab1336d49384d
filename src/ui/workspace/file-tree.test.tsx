// @vitest-environment happy-dom
import { createSignal } from 'solid-js'
import { describe, expect, it, vi } from 'vitest'
import { createFileTree, type FileTree } from './create-file-tree'
import { createWorkspaceChanges } from './create-workspace-changes'
import { FileTreeView } from './file-tree'
import { makeFakeWorkspace, mount, press, PROJECT, ROOT } from './testing/workspace-harness'

function setup(files: Record<string, string> = {}, workspace = makeFakeWorkspace(files)) {
  const opened: string[] = []
  let tree!: FileTree
  const container = mount(() => {
    const changes = createWorkspaceChanges(workspace.listen, () => PROJECT)
    tree = createFileTree({ api: workspace.api, projectID: PROJECT, root: ROOT, changes })
    const [selected, setSelected] = createSignal<string>()
    return (
      <FileTreeView
        tree={tree}
        selected={selected()}
        onOpen={(path) => {
          opened.push(path)
          setSelected(path)
        }}
      />
    )
  })
  const item = (name: string) => {
    const found = [...container.querySelectorAll<HTMLElement>('[role="treeitem"]')].find((element) => element.querySelector('.tree-name')?.textContent === name)
    if (!found) throw new Error(`no tree item "${name}"`)
    return found
  }
  const names = () => [...container.querySelectorAll('[role="treeitem"] .tree-name')].map((element) => element.textContent)
  return { workspace, container, opened, item, names, tree: () => tree }
}

const FILES = {
  '/workspace/src/main.ts': 'main',
  '/workspace/src/util.ts': 'util',
  '/workspace/README.md': '# hi',
  '/workspace/package.json': '{}',
}

describe('the file tree', () => {
  it('lists the root lazily, directories first, as a labelled tree', async () => {
    const { container, names, workspace } = setup(FILES)
    await vi.waitFor(() => expect(names()).toEqual(['src', 'package.json', 'README.md']))
    expect(container.querySelector('[role="tree"]')?.getAttribute('aria-label')).toBe('Files')
    expect(workspace.api.listFiles).toHaveBeenCalledTimes(1)
    expect(workspace.api.listFiles).toHaveBeenCalledWith({ projectID: PROJECT, path: ROOT })
  })

  it('expands a directory on click, states its level, and collapses it again', async () => {
    const { item, names, workspace } = setup(FILES)
    await vi.waitFor(() => item('src'))
    expect(item('src').getAttribute('aria-expanded')).toBe('false')
    item('src').click()
    await vi.waitFor(() => expect(names()).toEqual(['src', 'main.ts', 'util.ts', 'package.json', 'README.md']))
    expect(workspace.api.listFiles).toHaveBeenLastCalledWith({ projectID: PROJECT, path: '/workspace/src' })
    expect(item('src').getAttribute('aria-expanded')).toBe('true')
    expect(item('main.ts').getAttribute('aria-level')).toBe('2')
    expect(item('main.ts').getAttribute('aria-posinset')).toBe('1')
    expect(item('main.ts').getAttribute('aria-setsize')).toBe('2')
    item('src').click()
    expect(names()).toEqual(['src', 'package.json', 'README.md'])
  })

  it('shows a file written into an expanded directory, and drops one that was removed', async () => {
    const { item, names, workspace } = setup(FILES)
    await vi.waitFor(() => item('src'))
    item('src').click()
    await vi.waitFor(() => item('util.ts'))
    workspace.change({ type: 'write', path: '/workspace/src/new.ts' }, 'fresh')
    await vi.waitFor(() => expect(names()).toEqual(['src', 'main.ts', 'new.ts', 'util.ts', 'package.json', 'README.md']))
    workspace.change({ type: 'remove', path: '/workspace/src/main.ts' })
    await vi.waitFor(() => expect(names()).toEqual(['src', 'new.ts', 'util.ts', 'package.json', 'README.md']))
    workspace.change({ type: 'mkdir', path: '/workspace/docs' })
    await vi.waitFor(() => expect(names()).toEqual(['docs', 'src', 'new.ts', 'util.ts', 'package.json', 'README.md']))
    workspace.change({ type: 'remove', path: '/workspace/src' })
    await vi.waitFor(() => expect(names()).toEqual(['docs', 'package.json', 'README.md']))
  })

  it('takes a removed entry out of its folder at once, so a move never shows it in both places', async () => {
    const { item, names, workspace } = setup(FILES)
    await vi.waitFor(() => item('src'))
    item('src').click()
    await vi.waitFor(() => item('util.ts'))
    // A move as the worker announces it: the new place written, then the old one removed.
    workspace.change({ type: 'write', path: '/workspace/src/README.md' }, '# hi')
    workspace.change({ type: 'remove', path: '/workspace/README.md' })
    // Neither folder's new listing has landed yet, and the old place is already empty.
    expect(names()).toEqual(['src', 'main.ts', 'util.ts', 'package.json'])
    await vi.waitFor(() => expect(names()).toEqual(['src', 'main.ts', 'README.md', 'util.ts', 'package.json']))
  })

  it('ignores changes in other projects and forgets hidden listings instead of reading them', async () => {
    const { item, workspace } = setup(FILES)
    await vi.waitFor(() => item('src'))
    workspace.change({ type: 'write', path: '/workspace/a.ts' }, 'x', 'prj_other')
    // The folded `src` was never listed, and the root already shows it: a change inside it lists nothing.
    workspace.change({ type: 'write', path: '/workspace/src/b.ts' }, 'x')
    expect(workspace.api.listFiles).toHaveBeenCalledTimes(1)
  })

  it('lists a directory again when it changed while its listing was on the way', async () => {
    const { item, names, workspace } = setup(FILES)
    await vi.waitFor(() => item('src'))
    workspace.change({ type: 'write', path: '/workspace/one.ts' }, '1')
    workspace.change({ type: 'write', path: '/workspace/two.ts' }, '2')
    await vi.waitFor(() => expect(names()).toContain('two.ts'))
    expect(names()).toContain('one.ts')
    expect(workspace.api.listFiles.mock.calls.length).toBeLessThanOrEqual(3)
  })

  it('reads everything on screen again when the root itself changes (another backend took over)', async () => {
    const { item, names, workspace } = setup(FILES)
    await vi.waitFor(() => item('src'))
    item('src').click()
    await vi.waitFor(() => item('main.ts'))
    workspace.api.listFiles.mockClear()
    workspace.change({ type: 'write', path: '/workspace/src/served.ts' }, 'x', 'prj_other')
    workspace.change({ type: 'mkdir', path: ROOT })
    await vi.waitFor(() => expect(names()).toContain('served.ts'))
    expect(workspace.api.listFiles.mock.calls.map(([input]) => input.path).sort()).toEqual([ROOT, '/workspace/src'])
  })

  it('moves with the arrow keys, Home and End, and opens and closes directories with Right and Left', async () => {
    const { item, names } = setup(FILES)
    await vi.waitFor(() => item('src'))
    const src = item('src')
    expect(src.tabIndex).toBe(0)
    expect(item('README.md').tabIndex).toBe(-1)
    src.focus()
    press(src, 'ArrowRight')
    await vi.waitFor(() => item('main.ts'))
    expect(src.getAttribute('aria-expanded')).toBe('true')
    expect(document.activeElement).toBe(src)
    press(src, 'ArrowRight')
    expect(document.activeElement).toBe(item('main.ts'))
    expect(item('main.ts').tabIndex).toBe(0)
    expect(src.tabIndex).toBe(-1)
    press(item('main.ts'), 'ArrowDown')
    expect(document.activeElement).toBe(item('util.ts'))
    press(item('util.ts'), 'ArrowLeft')
    expect(document.activeElement).toBe(src)
    press(src, 'ArrowLeft')
    expect(src.getAttribute('aria-expanded')).toBe('false')
    expect(names()).toEqual(['src', 'package.json', 'README.md'])
    press(src, 'End')
    expect(document.activeElement).toBe(item('README.md'))
    press(item('README.md'), 'Home')
    expect(document.activeElement).toBe(src)
    press(src, 'ArrowUp')
    expect(document.activeElement).toBe(src)
    press(src, 'r')
    expect(document.activeElement).toBe(item('README.md'))
  })

  it('opens a file with Enter and marks it selected', async () => {
    const { item, opened } = setup(FILES)
    await vi.waitFor(() => item('package.json'))
    const file = item('package.json')
    expect(file.getAttribute('aria-selected')).toBe('false')
    expect(item('src').hasAttribute('aria-selected')).toBe(false)
    file.focus()
    press(file, 'Enter')
    expect(opened).toEqual(['/workspace/package.json'])
    expect(file.getAttribute('aria-selected')).toBe('true')
  })

  it('says when the root cannot be listed, and lists it again on request', async () => {
    const workspace = makeFakeWorkspace(FILES)
    workspace.api.listFiles.mockRejectedValueOnce(new Error('storage is closed'))
    const { container, names } = setup(FILES, workspace)
    await vi.waitFor(() => expect(container.textContent).toContain("Couldn't list the files: storage is closed"))
    container.querySelector<HTMLButtonElement>('button')!.click()
    await vi.waitFor(() => expect(names()).toEqual(['src', 'package.json', 'README.md']))
  })
})
