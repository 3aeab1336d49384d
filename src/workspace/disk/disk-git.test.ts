import { describe, expect, it } from 'vitest'
import { openDiskWorkspace } from './disk-workspace'
import { MemoryDirectory } from './testing/memory-directory'

function clock(start = 1000) {
  let time = start
  return () => (time += 10)
}

describe('git on a folder opened from disk', () => {
  it('init, config, add, commit, status and log run through the shell; .git lands in the folder but stays out of listings and snapshots', async () => {
    const folder = MemoryDirectory.from({ 'README.md': '# app\n' }, { name: 'app', now: clock() })
    const workspace = await openDiskWorkspace({ handle: folder, observe: false, scanReuseMs: 0 })

    const init = await workspace.exec('git init', {})
    expect(init).toMatchObject({ exitCode: 0, output: 'Initialized empty Git repository in /workspace/.git/\n' })
    // The repository is written into the folder itself, where the user's own git finds it.
    expect(folder.text('.git/HEAD')).toBe('ref: refs/heads/main\n')

    await workspace.writeFile('/workspace/src/main.ts', 'export const answer = 42\n')
    const commit = await workspace.exec(
      'git config user.name "Ada Lovelace" && git config user.email ada@example.org && git add . && git commit -m "first commit"',
      {},
    )
    expect(commit.exitCode).toBe(0)
    expect(commit.output).toMatch(/^\[main \(root-commit\) [0-9a-f]{7}\] first commit\n/)
    expect(folder.text('.git/config')).toContain('name = Ada Lovelace')

    expect(await workspace.exec('git status', {})).toMatchObject({ exitCode: 0, output: 'On branch main\nnothing to commit, working tree clean\n' })
    await workspace.writeFile('/workspace/README.md', '# app\n\nA folder on disk.\n')
    expect((await workspace.exec('git status --short', {})).output).toBe(' M README.md\n')

    const log = await workspace.exec('git log --format="%an %s"', {})
    expect(log).toMatchObject({ exitCode: 0, output: 'Ada Lovelace first commit\n' })

    expect((await workspace.list('/workspace')).map((entry) => entry.name)).toEqual(['README.md', 'src'])
    expect(await workspace.glob('**/*')).not.toContainEqual(expect.stringContaining('.git'))
    expect(Object.keys(await workspace.manifest()).sort()).toEqual(['/workspace/README.md', '/workspace/src/main.ts'])
    // Still reachable by its name, as git itself needs it.
    expect(await workspace.readText('/workspace/.git/HEAD')).toBe('ref: refs/heads/main\n')
  })
})
