// @vitest-environment happy-dom
import { createSignal } from 'solid-js'
import { describe, expect, it, vi } from 'vitest'
import { createWorkspaceChanges } from './create-workspace-changes'
import { FileViewer } from './file-viewer'
import { makeFakeWorkspace, mount, PROJECT, ROOT } from './testing/workspace-harness'

const MAX_LINES = 20

function setup(files: Record<string, string | Uint8Array>, first: string) {
  const workspace = makeFakeWorkspace(files)
  const [path, setPath] = createSignal(first)
  const container = mount(() => (
    <FileViewer api={workspace.api} projectID={PROJECT} root={ROOT} path={path()} maxLines={MAX_LINES} changes={createWorkspaceChanges(workspace.listen, () => PROJECT)} />
  ))
  const lines = () =>
    [...container.querySelectorAll('.file-line')].map((line) => [line.querySelector('.line-number')!.textContent, line.querySelector('.line-text')!.textContent])
  return { workspace, container, lines, setPath }
}

describe('the file viewer', () => {
  it('shows text with line numbers, as text and never as markup', async () => {
    const { container, lines } = setup({ '/workspace/src/a.ts': 'const a = 1\n<img src=x onerror=alert(1)>\n' }, '/workspace/src/a.ts')
    await vi.waitFor(() => expect(lines()).toEqual([['1', 'const a = 1'], ['2', '<img src=x onerror=alert(1)>']]))
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('.line-number')!.getAttribute('aria-hidden')).toBe('true')
    expect(container.querySelector('[role="region"]')!.getAttribute('aria-label')).toBe('Contents of src/a.ts')
    expect(container.textContent).toContain('src/a.ts')
  })

  it('says a binary file is binary, with its size', async () => {
    const { container } = setup({ '/workspace/logo.png': new Uint8Array(1536) }, '/workspace/logo.png')
    await vi.waitFor(() => expect(container.textContent).toContain('Binary file, 1,536 bytes'))
    expect(container.querySelector('.file-line')).toBeNull()
  })

  it('reads the file again when it changes, and says when it was deleted', async () => {
    const { workspace, lines, container } = setup({ '/workspace/a.txt': 'one\n', '/workspace/b.txt': 'other\n' }, '/workspace/a.txt')
    await vi.waitFor(() => expect(lines()).toEqual([['1', 'one']]))
    workspace.change({ type: 'write', path: '/workspace/b.txt' }, 'unrelated\n')
    workspace.change({ type: 'write', path: '/workspace/a.txt' }, 'one\ntwo\n')
    await vi.waitFor(() => expect(lines()).toEqual([['1', 'one'], ['2', 'two']]))
    expect(workspace.api.readFile).toHaveBeenCalledTimes(2)
    workspace.change({ type: 'remove', path: '/workspace/a.txt' })
    await vi.waitFor(() => expect(container.textContent).toContain('This file was deleted.'))
  })

  it('follows the path it is given', async () => {
    const { setPath, lines } = setup({ '/workspace/a.txt': 'a\n', '/workspace/b.txt': 'b\n' }, '/workspace/a.txt')
    await vi.waitFor(() => expect(lines()).toEqual([['1', 'a']]))
    setPath('/workspace/b.txt')
    await vi.waitFor(() => expect(lines()).toEqual([['1', 'b']]))
  })

  it('shows the head of a long file until asked for all of it', async () => {
    const text = Array.from({ length: MAX_LINES + 5 }, (_, index) => `line ${index + 1}`).join('\n')
    const { container, lines } = setup({ '/workspace/big.txt': text }, '/workspace/big.txt')
    await vi.waitFor(() => expect(lines()).toHaveLength(MAX_LINES))
    const more = [...container.querySelectorAll('button')].find((button) => button.textContent?.startsWith('Show all'))!
    expect(more.textContent).toBe(`Show all ${(MAX_LINES + 5).toLocaleString('en-US')} lines`)
    more.click()
    expect(lines()).toHaveLength(MAX_LINES + 5)
    expect(lines().at(-1)).toEqual([String(MAX_LINES + 5), `line ${MAX_LINES + 5}`])
  })

  it('reports a file it cannot read', async () => {
    const { container } = setup({}, '/workspace/missing.txt')
    await vi.waitFor(() => expect(container.textContent).toContain("Couldn't read the file: /workspace/missing.txt was not found"))
  })
})
