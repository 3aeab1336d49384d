import { describe, expect, it } from 'vitest'
import { committedProject, gitProject, TEST_IDENTITY_ENV } from './testing/git-project'

describe('git init', () => {
  it('creates .git in the working directory and says so; a second init says it reinitialized', async () => {
    const { git, exists } = gitProject({ 'a.txt': 'a\n' })
    expect(await git('init')).toEqual({ stdout: 'Initialized empty Git repository in /workspace/.git/\n', stderr: '', exitCode: 0 })
    expect(await exists('.git/HEAD')).toBe(true)
    expect((await git('init')).stdout).toBe('Reinitialized existing Git repository in /workspace/.git/\n')
    expect((await git('branch --show-current')).stdout).toBe('main\n')
  })

  it('takes -b for the first branch and a directory to make the repository in', async () => {
    const { git, exists } = gitProject()
    expect((await git('init -b trunk app')).stdout).toBe('Initialized empty Git repository in /workspace/app/.git/\n')
    expect(await exists('app/.git/HEAD')).toBe(true)
    expect((await git('branch --show-current', { cwd: '/workspace/app' })).stdout).toBe('trunk\n')
  })

  it('outside a repository, commands fail as git does', async () => {
    const { git } = gitProject({ 'a.txt': 'a\n' })
    expect(await git('status')).toEqual({
      stdout: '',
      stderr: 'fatal: not a git repository (or any of the parent directories): .git\n',
      exitCode: 128,
    })
  })
})

describe('git status', () => {
  it('before the first commit: untracked files, a wholly untracked directory as one entry', async () => {
    const { git } = gitProject({ 'a.txt': 'a\n', 'src/b.ts': 'b\n', 'src/deep/c.ts': 'c\n' })
    await git('init')
    expect((await git('status')).stdout).toBe(
      'On branch main\n\nNo commits yet\n\nUntracked files:\n  (use "git add <file>..." to include in what will be committed)\n' +
        '\ta.txt\n\tsrc/\n\nnothing added to commit but untracked files present (use "git add" to track)\n',
    )
    await git('add a.txt')
    expect((await git('status')).stdout).toBe(
      'On branch main\n\nNo commits yet\n\nChanges to be committed:\n  (use "git rm --cached <file>..." to unstage)\n\tnew file:   a.txt\n\n' +
        'Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n\tsrc/\n\n',
    )
  })

  it('a clean tree, then staged, unstaged, deleted and untracked changes', async () => {
    const { git, write, workspace } = await committedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' })
    expect((await git('status')).stdout).toBe('On branch main\nnothing to commit, working tree clean\n')
    await write('a.txt', 'a2\n')
    await git('add a.txt')
    await write('a.txt', 'a3\n')
    await write('b.txt', 'b2\n')
    await workspace.remove('/workspace/c.txt')
    await write('d.txt', 'd\n')
    expect((await git('status')).stdout).toBe(
      'On branch main\nChanges to be committed:\n  (use "git restore --staged <file>..." to unstage)\n\tmodified:   a.txt\n\n' +
        'Changes not staged for commit:\n  (use "git add/rm <file>..." to update what will be committed)\n' +
        '  (use "git restore <file>..." to discard changes in working directory)\n' +
        '\tmodified:   a.txt\n\tmodified:   b.txt\n\tdeleted:    c.txt\n\n' +
        'Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n\td.txt\n\n',
    )
    expect((await git('status -s')).stdout).toBe('MM a.txt\n M b.txt\n D c.txt\n?? d.txt\n')
  })

  it('--short shows paths from the working directory, --porcelain from the repository root', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n', 'src/b.ts': 'b\n' })
    await write('a.txt', 'A\n')
    await write('src/b.ts', 'B\n')
    expect((await git('status --short', { cwd: '/workspace/src' })).stdout).toBe(' M ../a.txt\n M b.ts\n')
    expect((await git('status --porcelain', { cwd: '/workspace/src' })).stdout).toBe(' M a.txt\n M src/b.ts\n')
    expect((await git('status', { cwd: '/workspace/src' })).stdout).toContain('\tmodified:   ../a.txt\n\tmodified:   b.ts\n')
  })

  it('-uno leaves untracked files out', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n' })
    await write('a.txt', 'A\n')
    await write('new.txt', 'n\n')
    expect((await git('status --porcelain -uno')).stdout).toBe(' M a.txt\n')
  })

  it('leaves out what .gitignore ignores', async () => {
    const { git } = gitProject({ '.gitignore': 'dist/\n*.log\n', 'a.txt': 'a\n', 'x.log': 'x\n', 'dist/app.js': 'js\n' })
    await git('init')
    expect((await git('status -s')).stdout).toBe('?? .gitignore\n?? a.txt\n')
  })
})

describe('git add', () => {
  it('`.` stages new, changed and deleted files', async () => {
    const { git, write, workspace } = await committedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    await write('a.txt', 'A\n')
    await workspace.remove('/workspace/b.txt')
    await write('new/c.txt', 'c\n')
    expect(await git('add .')).toEqual({ stdout: '', stderr: '', exitCode: 0 })
    expect((await git('status -s')).stdout).toBe('M  a.txt\nD  b.txt\nA  new/c.txt\n')
  })

  it('-A stages the whole tree from a subdirectory; a path stages only itself', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n', 'src/b.ts': 'b\n' })
    await write('a.txt', 'A\n')
    await write('src/b.ts', 'B\n')
    await git('add b.ts', { cwd: '/workspace/src' })
    expect((await git('status -s')).stdout).toBe(' M a.txt\nM  src/b.ts\n')
    await git('add -A', { cwd: '/workspace/src' })
    expect((await git('status -s')).stdout).toBe('M  a.txt\nM  src/b.ts\n')
  })

  it('refuses a path that matches nothing, and an ignored file without -f', async () => {
    const { git } = gitProject({ '.gitignore': '*.log\n', 'x.log': 'x\n' })
    await git('init')
    expect(await git('add nope.txt')).toEqual({ stdout: '', stderr: "fatal: pathspec 'nope.txt' did not match any files\n", exitCode: 128 })
    expect(await git('add x.log')).toEqual({
      stdout: '',
      stderr: 'The following paths are ignored by one of your .gitignore files:\nx.log\nhint: Use -f if you really want to add them.\n',
      exitCode: 1,
    })
    await git('add -f x.log')
    expect((await git('status -s')).stdout).toBe('A  x.log\n?? .gitignore\n')
  })
})

describe('git commit', () => {
  it('reports the root commit with its counts and created files', async () => {
    const { git } = gitProject({ 'a.txt': 'one\ntwo\n', 'src/b.ts': 'b\n' }, { env: TEST_IDENTITY_ENV })
    await git('init')
    await git('add .')
    const commit = await git('commit -m "first commit"')
    expect(commit.exitCode).toBe(0)
    expect(commit.stdout).toMatch(
      /^\[main \(root-commit\) [0-9a-f]{7}\] first commit\n 2 files changed, 3 insertions\(\+\)\n create mode 100644 a\.txt\n create mode 100644 src\/b\.ts\n$/,
    )
  })

  it('with nothing staged prints the status and fails; without -m says how to give a message', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n' })
    expect(await git('commit -m again')).toEqual({ stdout: 'On branch main\nnothing to commit, working tree clean\n', stderr: '', exitCode: 1 })
    await write('a.txt', 'A\n')
    const none = await git('commit')
    expect(none.exitCode).toBe(1)
    expect(none.stderr).toContain('-m')
  })

  it('-a stages tracked changes first (not untracked files); -am bundles the switches', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n' })
    await write('a.txt', 'a\nb\n')
    await write('new.txt', 'n\n')
    const commit = await git('commit -am second')
    expect(commit.stdout).toMatch(/^\[main [0-9a-f]{7}\] second\n 1 file changed, 1 insertion\(\+\)\n$/)
    expect((await git('status -s')).stdout).toBe('?? new.txt\n')
  })

  it('--amend replaces the last commit', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n' })
    await write('a.txt', 'A\n')
    await git('commit -am typo')
    await git('commit --amend -m fixed')
    expect((await git('log --oneline')).stdout).toMatch(/^[0-9a-f]{7} \(HEAD -> main\) fixed\n[0-9a-f]{7} first\n$/)
  })

  it('signs as user.name/user.email, the GIT_AUTHOR_* environment over them', async () => {
    const plain = await committedProject({ 'a.txt': 'a\n' })
    expect((await plain.git('log')).stdout).toContain('Author: Test Author <author@example.org>\n')
    await plain.git('config user.name "Ada Lovelace"')
    await plain.git('config user.email ada@example.org')
    await plain.write('a.txt', 'A\n')
    await plain.git('commit -am second')
    expect((await plain.git('log -1')).stdout).toContain('Author: Ada Lovelace <ada@example.org>\n')
    const env = await committedProject({ 'a.txt': 'a\n' }, { env: { GIT_AUTHOR_NAME: 'Env Name', GIT_AUTHOR_EMAIL: 'env@example.org' } })
    await env.git('config user.name Ignored')
    expect((await env.git('log')).stdout).toContain('Author: Env Name <env@example.org>\n')
  })

  it('refuses a commit by nobody, as git does, and says how to set who you are', async () => {
    const { git } = gitProject({ 'a.txt': 'a\n' })
    await git('init')
    await git('add .')
    const refused = await git('commit -m first')
    expect(refused.exitCode).toBe(128)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(/^Author identity unknown\n\n\*\*\* Please tell me who you are\.\n/)
    expect(refused.stderr).toContain('  git config user.email "you@example.com"\n  git config user.name "Your Name"\n')
    expect(refused.stderr).toContain('fatal: unable to auto-detect name')
    expect((await git('log')).exitCode).not.toBe(0)
    // A name alone is not enough either; with both, the same commit goes through.
    await git('config user.name "Ada Lovelace"')
    expect((await git('commit -m first')).stderr).toContain('fatal: unable to auto-detect email address')
    await git('config user.email ada@example.org')
    expect(await git('commit -m first')).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^\[main \(root-commit\) [0-9a-f]{7}\] first\n/) })
  })
})

describe('git rm and mv', () => {
  it('rm deletes the file and stages that; --cached keeps the file untracked', async () => {
    const { git, exists } = await committedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    expect(await git('rm a.txt')).toEqual({ stdout: "rm 'a.txt'\n", stderr: '', exitCode: 0 })
    expect(await exists('a.txt')).toBe(false)
    expect((await git('rm --cached b.txt')).stdout).toBe("rm 'b.txt'\n")
    expect(await exists('b.txt')).toBe(true)
    expect((await git('status -s')).stdout).toBe('D  a.txt\nD  b.txt\n?? b.txt\n')
  })

  it('rm refuses untracked paths, directories without -r, and files with local changes without -f', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n', 'src/b.ts': 'b\n' })
    expect(await git('rm nope')).toMatchObject({ stderr: "fatal: pathspec 'nope' did not match any files\n", exitCode: 128 })
    expect(await git('rm src')).toMatchObject({ stderr: "fatal: not removing 'src' recursively without -r\n", exitCode: 128 })
    expect((await git('rm -r src')).stdout).toBe("rm 'src/b.ts'\n")
    await write('a.txt', 'changed\n')
    expect(await git('rm a.txt')).toMatchObject({
      stderr: 'error: the following file has local modifications:\n    a.txt\n(use --cached to keep the file, or -f to force removal)\n',
      exitCode: 1,
    })
  })

  it('mv moves the file and stages it as a rename; into a directory too', async () => {
    const { git, exists, read, workspace } = await committedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    expect(await git('mv a.txt c.txt')).toEqual({ stdout: '', stderr: '', exitCode: 0 })
    expect(await exists('a.txt')).toBe(false)
    expect(await read('c.txt')).toBe('a\n')
    expect((await git('status')).stdout).toContain('\trenamed:    a.txt -> c.txt\n')
    await workspace.mkdir('/workspace/docs')
    await git('mv b.txt docs')
    expect((await git('status -s')).stdout).toBe('R  a.txt -> c.txt\nR  b.txt -> docs/b.txt\n')
    expect(await git('mv nope x')).toMatchObject({ stderr: 'fatal: bad source, source=nope, destination=x\n', exitCode: 128 })
  })
})

describe('git restore and checkout of paths', () => {
  it('restore puts back the staged version; --staged unstages and keeps the edit', async () => {
    const { git, write, read } = await committedProject({ 'a.txt': 'a\n' })
    await write('a.txt', 'edited\n')
    await git('add a.txt')
    expect((await git('restore --staged a.txt')).exitCode).toBe(0)
    expect((await git('status -s')).stdout).toBe(' M a.txt\n')
    expect(await read('a.txt')).toBe('edited\n')
    await git('restore a.txt')
    expect(await read('a.txt')).toBe('a\n')
    expect((await git('status -s')).stdout).toBe('')
    expect(await git('restore nope')).toMatchObject({ stderr: "error: pathspec 'nope' did not match any file(s) known to git\n", exitCode: 1 })
  })

  it('checkout -- <path> and checkout <path> discard working-tree changes; a deleted file comes back', async () => {
    const { git, write, read, workspace } = await committedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    await write('a.txt', 'edited\n')
    await workspace.remove('/workspace/b.txt')
    await git('checkout -- a.txt')
    await git('checkout b.txt')
    expect(await read('a.txt')).toBe('a\n')
    expect(await read('b.txt')).toBe('b\n')
  })
})

describe('git branch, checkout and switch', () => {
  it('lists, creates and deletes branches', async () => {
    const { git } = await committedProject({ 'a.txt': 'a\n' })
    expect((await git('branch')).stdout).toBe('* main\n')
    expect(await git('branch feature')).toEqual({ stdout: '', stderr: '', exitCode: 0 })
    expect((await git('branch')).stdout).toBe('  feature\n* main\n')
    expect(await git('branch feature')).toMatchObject({ stderr: "fatal: a branch named 'feature' already exists\n", exitCode: 128 })
    expect((await git('branch -d feature')).stdout).toMatch(/^Deleted branch feature \(was [0-9a-f]{7}\)\.\n$/)
    expect(await git('branch -d main')).toMatchObject({ stderr: "error: Cannot delete branch 'main' checked out at '/workspace'\n", exitCode: 1 })
    expect(await git('branch -d nope')).toMatchObject({ stderr: "error: branch 'nope' not found.\n", exitCode: 1 })
  })

  it('checkout -b makes a branch; checkout <branch> brings back its files', async () => {
    const { git, write, read, exists } = await committedProject({ 'a.txt': 'a\n' })
    expect(await git('checkout -b feature')).toEqual({ stdout: '', stderr: "Switched to a new branch 'feature'\n", exitCode: 0 })
    await write('a.txt', 'feature\n')
    await write('f.txt', 'f\n')
    await git('add .')
    await git('commit -m feature')
    expect(await git('checkout main')).toEqual({ stdout: '', stderr: "Switched to branch 'main'\n", exitCode: 0 })
    expect(await read('a.txt')).toBe('a\n')
    expect(await exists('f.txt')).toBe(false)
    expect(await git('checkout main')).toMatchObject({ stderr: "Already on 'main'\n", exitCode: 0 })
    await git('switch feature')
    expect(await read('a.txt')).toBe('feature\n')
    expect((await git('branch')).stdout).toBe('* feature\n  main\n')
  })

  it('refuses a switch that would overwrite local changes, and carries others along', async () => {
    const { git, write, read } = await committedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    await git('switch -c feature')
    await write('a.txt', 'feature\n')
    await git('commit -am feature')
    await git('switch main')
    await write('a.txt', 'local\n')
    expect(await git('checkout feature')).toEqual({
      stdout: '',
      stderr:
        'error: Your local changes to the following files would be overwritten by checkout:\n\ta.txt\n' +
        'Please commit your changes or stash them before you switch branches.\nAborting\n',
      exitCode: 1,
    })
    await git('checkout -- a.txt')
    await write('b.txt', 'local\n')
    expect(await git('switch feature')).toEqual({ stdout: 'M\tb.txt\n', stderr: "Switched to branch 'feature'\n", exitCode: 0 })
    expect(await read('b.txt')).toBe('local\n')
  })

  it('switch to an unknown branch and checkout of an unknown name fail plainly', async () => {
    const { git } = await committedProject({ 'a.txt': 'a\n' })
    expect(await git('switch nope')).toMatchObject({ stderr: 'fatal: invalid reference: nope\n', exitCode: 128 })
    expect(await git('checkout nope')).toMatchObject({ stderr: "error: pathspec 'nope' did not match any file(s) known to git\n", exitCode: 1 })
  })

  it('checkout -b before the first commit only renames the branch to be', async () => {
    const { git } = gitProject({ 'a.txt': 'a\n' }, { env: TEST_IDENTITY_ENV })
    await git('init')
    await git('checkout -b dev')
    await git('add .')
    expect((await git('commit -m first')).stdout).toMatch(/^\[dev \(root-commit\)/)
  })
})
