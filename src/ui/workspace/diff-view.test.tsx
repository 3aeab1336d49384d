// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import type { FileDiff } from '../../core/schema'
import { DiffView } from './diff-view'
import { mount } from './testing/workspace-harness'

const DIFFS: FileDiff[] = [
  { file: 'src/a.ts', status: 'modified', additions: 2, deletions: 1, patch: '--- src/a.ts\n+++ src/a.ts\n@@ -1,2 +1,3 @@\n keep\n-old\n+new\n+more\n' },
  { file: 'src/b.ts', status: 'added', additions: 1, deletions: 0, patch: '--- /dev/null\n+++ src/b.ts\n@@ -0,0 +1 @@\n+<b>bold</b>\n' },
  { file: 'gone.txt', status: 'deleted', additions: 0, deletions: 4 },
]

describe('the diff view', () => {
  it('lists files with status and counts, and the totals in words', () => {
    const container = mount(() => <DiffView diffs={DIFFS} label="Changes in this session" />)
    expect(container.querySelector('[role="group"]')!.getAttribute('aria-label')).toBe('Changes in this session')
    const files = [...container.querySelectorAll('.diff-file')].map((file) => ({
      name: file.querySelector('.diff-name')!.textContent,
      status: file.querySelector('.diff-status')!.textContent,
      additions: file.querySelector('.diff-additions')!.textContent,
      deletions: file.querySelector('.diff-deletions')!.textContent,
    }))
    expect(files).toEqual([
      { name: 'src/a.ts', status: 'modified', additions: '+2', deletions: '−1' },
      { name: 'src/b.ts', status: 'added', additions: '+1', deletions: '−0' },
      { name: 'gone.txt', status: 'deleted', additions: '+0', deletions: '−4' },
    ])
    expect(container.querySelector('.diff-totals .visually-hidden')!.textContent).toBe('3 files changed, 3 additions, 5 deletions')
  })

  it('styles added and removed lines by class, keeping their signs, as text', () => {
    const container = mount(() => <DiffView diffs={DIFFS} />)
    const first = container.querySelectorAll('.diff-file')[0]!
    const lines = [...first.querySelectorAll('.diff-line')].map((line) => [line.className.replace('diff-line diff-line-', ''), line.textContent])
    expect(lines).toEqual([
      ['meta', '--- src/a.ts'],
      ['meta', '+++ src/a.ts'],
      ['hunk', '@@ -1,2 +1,3 @@'],
      ['context', ' keep'],
      ['removed', '-old'],
      ['added', '+new'],
      ['added', '+more'],
    ])
    expect(container.querySelector('b')).toBeNull()
    expect(container.textContent).toContain('No patch recorded for this file.')
  })

  it('folds and unfolds a file with its toggle', () => {
    const container = mount(() => <DiffView diffs={DIFFS} />)
    const toggle = container.querySelector<HTMLButtonElement>('.diff-file-toggle')!
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(container.querySelector(`#${toggle.getAttribute('aria-controls')}`)).not.toBeNull()
    toggle.click()
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(container.querySelectorAll('.diff-file')[0]!.querySelector('.diff-line')).toBeNull()
  })

  it('starts folded when many files changed, and says when nothing did', () => {
    const many = Array.from({ length: 8 }, (_, index): FileDiff => ({ file: `f${index}`, additions: 1, deletions: 0, patch: '@@ -0,0 +1 @@\n+x' }))
    const container = mount(() => <DiffView diffs={many} />)
    expect(container.querySelectorAll('.diff-line')).toHaveLength(0)
    const empty = mount(() => <DiffView diffs={[]} empty="Nothing changed." />)
    expect(empty.textContent).toBe('Nothing changed.')
  })

  it('marks the changed words of a replaced line, the text still reading as the patch', async () => {
    const diff: FileDiff = { file: 'notes.txt', status: 'modified', additions: 1, deletions: 1, patch: '@@ -1,2 +1,2 @@\n keep\n-the price is 10\n+the price is 12\n' }
    const container = mount(() => <DiffView diffs={[diff]} />)
    await vi.waitFor(() => expect(container.querySelector('[data-decorated]')).not.toBeNull())
    expect([...container.querySelectorAll('mark.diff-word')].map((mark) => [mark.closest('.diff-line')!.className, mark.textContent])).toEqual([
      ['diff-line diff-line-removed', '10'],
      ['diff-line diff-line-added', '12'],
    ])
    expect([...container.querySelectorAll('.diff-line')].map((line) => line.textContent)).toEqual(['@@ -1,2 +1,2 @@', ' keep', '-the price is 10', '+the price is 12'])
  })
})
