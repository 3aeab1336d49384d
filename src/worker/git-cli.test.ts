import { describe, expect, it } from 'vitest'
import { makeProject } from '../snapshot/testing/project'
import { stepPatch } from '../snapshot/patch'
import { takeSnapshot } from '../snapshot/track'
import { createMemoryWorkspace } from '../workspace/local/testing/memory-workspace'
import { runGit } from '../workspace/git/index'
import { committedProject, gitProject } from '../workspace/git/testing/git-project'

describe('the git command line', () => {
  it('--version names the engine; no subcommand prints what there is', async () => {
    const { git } = gitProject()
    expect(await git('--version')).toEqual({
      stdout: "git version 2.0.0 (isomorphic-git 1.44.19, tabcode's offline git)\n",
      stderr: '',
      exitCode: 0,
    })
    const bare = await git('')
    expect(bare.exitCode).toBe(1)
    expect(bare.stdout).toContain('init, status, add, commit, log, diff, show, branch, checkout, switch, restore, rm, mv')
  })

  it('unknown subcommands fail with 1, unsupported ones say so, unknown options fail with 129', async () => {
    const { git } = await committedProject({ 'a.txt': 'a\n' })
    expect(await git('frobnicate')).toEqual({ stdout: '', stderr: "git: 'frobnicate' is not a git command. See 'git --help'.\n", exitCode: 1 })
    expect(await git('rebase main')).toMatchObject({ stderr: expect.stringContaining("'rebase' is not supported"), exitCode: 1 })
    // A push with no remote configured fails as git's does.
    expect(await git('push')).toMatchObject({ stderr: expect.stringContaining("fatal: 'origin' does not appear to be a git repository"), exitCode: 128 })
    expect(await git('status --frob')).toEqual({ stdout: '', stderr: "error: unknown option `frob'\nusage: git status [<options>]\n", exitCode: 129 })
    expect(await git('log -z')).toEqual({ stdout: '', stderr: "error: unknown switch `z'\nusage: git log [<options>]\n", exitCode: 129 })
    expect(await git('commit -m')).toMatchObject({ stderr: expect.stringContaining("switch `m' requires a value"), exitCode: 129 })
  })

  it('-C runs in another directory', async () => {
    const { git } = gitProject({ 'app/a.txt': 'a\n' })
    await git('init app')
    expect((await git('-C app status -s')).stdout).toBe('?? a.txt\n')
  })

  it('config sets and reads user.name and user.email; a missing key exits 1', async () => {
    const { git } = gitProject({ 'a.txt': 'a\n' })
    await git('init')
    expect(await git('config user.name "Grace Hopper"')).toEqual({ stdout: '', stderr: '', exitCode: 0 })
    expect((await git('config user.name')).stdout).toBe('Grace Hopper\n')
    expect((await git('config --get user.name')).stdout).toBe('Grace Hopper\n')
    expect(await git('config user.email')).toEqual({ stdout: '', stderr: '', exitCode: 1 })
    expect((await git('config --list')).stdout).toContain('user.name=Grace Hopper\n')
  })

  it('an aborted command ends with 130', async () => {
    const { git } = gitProject({ 'a.txt': 'a\n' })
    await git('init')
    const controller = new AbortController()
    controller.abort()
    expect((await git('add .', { signal: controller.signal })).exitCode).toBe(130)
  })
})

describe('git in the shell', () => {
  it('runs as a command with quoting, && chains and pipes', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'hello\n' })
    const first = await workspace.exec('git init && git config user.name "Ada Lovelace" && git config user.email ada@example.org && git add . && git commit -m "first commit"', {})
    expect(first.exitCode).toBe(0)
    expect(first.output).toMatch(/^Initialized empty Git repository in \/workspace\/\.git\/\n\[main \(root-commit\) [0-9a-f]{7}\] first commit\n/)
    await workspace.writeFile('/workspace/a.txt', 'hello\nworld\n')
    const diff = await workspace.exec('git diff | grep "^+"', {})
    expect(diff.output).toBe('+++ b/a.txt\n+world\n')
    const log = await workspace.exec('git commit -qam second && git log --oneline | wc -l', {})
    expect(log.output.trim()).toBe('2')
  })

  it('loads isomorphic-git on first use through the lazy entry point', async () => {
    const workspace = createMemoryWorkspace()
    let out = ''
    const result = await runGit({
      argv: ['git', 'init'],
      cwd: '/workspace',
      env: {},
      stdin: '',
      files: workspace,
      signal: new AbortController().signal,
      onStdout: (chunk) => (out += chunk),
      onStderr: (chunk) => (out += chunk),
    })
    expect(result.exitCode).toBe(0)
    expect(out).toBe('Initialized empty Git repository in /workspace/.git/\n')
  })
})

describe('git and snapshots', () => {
  it("a commit changes no file a snapshot tracks, so the step's patch lists no .git file", async () => {
    const project = makeProject({ 'a.txt': 'a\n' })
    const before = await takeSnapshot(project.track)
    const committed = await project.workspace.exec('git init && git config user.name Ada && git config user.email ada@example.org && git add . && git commit -m first', {})
    expect(committed.exitCode).toBe(0)
    const after = await takeSnapshot(project.track)
    expect(stepPatch(before, after)).toBeUndefined()
    await project.workspace.writeFile('/workspace/b.txt', 'b\n')
    expect((await project.workspace.exec('git add b.txt && git commit -m second', {})).exitCode).toBe(0)
    expect(stepPatch(after, await takeSnapshot(project.track))?.files).toEqual(['b.txt'])
  })
})
