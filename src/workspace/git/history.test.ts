import { describe, expect, it } from 'vitest'
import { formatDate } from './history'
import { committedProject, gitProject } from './testing/git-project'

const OID = '[0-9a-f]{40}'
const SHORT = '[0-9a-f]{7}'

describe('git log', () => {
  it('lists commits newest first with author, date and indented message', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n' })
    await write('a.txt', 'A\n')
    await git('commit -a -m "second" -m "with a body"')
    const { stdout } = await git('log')
    expect(stdout).toMatch(
      new RegExp(
        `^commit ${OID} \\(HEAD -> main\\)\nAuthor: Test Author <author@example.org>\nDate:   \\w{3} \\w{3} \\d+ \\d\\d:\\d\\d:\\d\\d 2026 [+-]\\d{4}\n\n` +
          `    second\n\n    with a body\n\ncommit ${OID}\nAuthor: Test Author <author@example.org>\nDate:   .+\n\n    first\n$`,
      ),
    )
  })

  it('--oneline, -n N and -N', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n' })
    await git('branch old')
    await write('a.txt', 'A\n')
    await git('commit -am second')
    expect((await git('log --oneline')).stdout).toMatch(new RegExp(`^${SHORT} \\(HEAD -> main\\) second\n${SHORT} \\(old\\) first\n$`))
    expect((await git('log --oneline -n 1')).stdout).toMatch(new RegExp(`^${SHORT} \\(HEAD -> main\\) second\n$`))
    expect((await git('log -1 --oneline')).stdout.split('\n')).toHaveLength(2)
    expect((await git('log --oneline old')).stdout).toMatch(new RegExp(`^${SHORT} \\(old\\) first\n$`))
  })

  it('--graph, --format placeholders, --all, --stat and a path narrow the history', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    await write('b.txt', 'b2\n')
    await git('commit -am "change b"')
    await git('switch -c side')
    await write('a.txt', 'a2\n')
    await git('commit -am "change a"')
    await git('switch main')
    expect((await git('log --oneline --graph')).stdout).toMatch(new RegExp(`^\\* ${SHORT} \\(HEAD -> main\\) change b\n\\* ${SHORT} first\n$`))
    expect((await git('log --format=%s|%an|%ae')).stdout).toBe('change b|Test Author|author@example.org\nfirst|Test Author|author@example.org\n')
    expect((await git('log --pretty=format:%h%d')).stdout).toMatch(new RegExp(`^${SHORT} \\(HEAD -> main\\)\n${SHORT}\n$`))
    expect((await git('log --all --format=%s')).stdout).toBe('change a\nchange b\nfirst\n')
    expect((await git('log --format=%s -- a.txt')).stdout).toBe('first\n')
    expect((await git('log --format=%s side a.txt')).stdout).toBe('change a\nfirst\n')
    expect((await git('log -1 --stat')).stdout).toMatch(/\n\n    change b\n\n b\.txt \| 2 \+-\n 1 file changed, 1 insertion\(\+\), 1 deletion\(-\)\n$/)
    expect((await git('log -1 -p')).stdout).toContain('\n    change b\n\ndiff --git a/b.txt b/b.txt\n')
  })

  it('before the first commit says the branch has none', async () => {
    const { git } = gitProject()
    await git('init')
    expect(await git('log')).toEqual({ stdout: '', stderr: "fatal: your current branch 'main' does not have any commits yet\n", exitCode: 128 })
  })

  it("formats dates in the commit's own time zone", () => {
    const time = Date.UTC(2026, 11, 1, 21, 8, 10) / 1000
    expect(formatDate(time, 0)).toBe('Tue Dec 1 21:08:10 2026 +0000')
    expect(formatDate(time, -90)).toBe('Tue Dec 1 22:38:10 2026 +0130')
    expect(formatDate(time, 300)).toBe('Tue Dec 1 16:08:10 2026 -0500')
  })
})

describe('git diff', () => {
  it('shows unstaged changes as a unified diff with the blob ids', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'one\ntwo\nthree\n' })
    await write('a.txt', 'one\n2\nthree\nfour\n')
    expect((await git('diff')).stdout).toMatch(
      new RegExp(`^diff --git a/a.txt b/a.txt\nindex ${SHORT}\\.\\.${SHORT} 100644\n--- a/a.txt\n\\+\\+\\+ b/a.txt\n@@ -1,3 \\+1,4 @@\n one\n-two\n\\+2\n three\n\\+four\n$`),
    )
    await git('add a.txt')
    expect((await git('diff')).stdout).toBe('')
    expect((await git('diff --cached')).stdout).toContain('@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n')
    expect((await git('diff --staged --stat')).stdout).toBe(' a.txt | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n')
  })

  it('--cached shows a new file against /dev/null, and a deleted one', async () => {
    const { git, write } = await committedProject({ 'old.txt': 'gone\n' })
    await write('new.txt', 'hello\n')
    await git('add new.txt')
    await git('rm -q old.txt')
    expect((await git('diff --cached')).stdout).toMatch(
      new RegExp(
        `^diff --git a/new.txt b/new.txt\nnew file mode 100644\nindex 0000000\\.\\.${SHORT}\n--- /dev/null\n\\+\\+\\+ b/new.txt\n@@ -0,0 \\+1 @@\n\\+hello\n` +
          `diff --git a/old.txt b/old.txt\ndeleted file mode 100644\nindex ${SHORT}\\.\\.0000000\n--- a/old.txt\n\\+\\+\\+ /dev/null\n@@ -1 \\+0,0 @@\n-gone\n$`,
      ),
    )
  })

  it('compares a commit with the working tree, two commits, a range, and narrows to paths', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    await write('a.txt', 'a2\n')
    await git('commit -am second')
    await write('b.txt', 'b2\n')
    expect((await git('diff HEAD~1 --stat')).stdout).toBe(' a.txt | 2 +-\n b.txt | 2 +-\n 2 files changed, 2 insertions(+), 2 deletions(-)\n')
    expect((await git('diff HEAD~1 HEAD --name-only')).stdout).toBe('a.txt\n')
    expect((await git('diff HEAD~1..HEAD --name-status')).stdout).toBe('M\ta.txt\n')
    expect((await git('diff --name-only HEAD~1 -- b.txt')).stdout).toBe('b.txt\n')
    expect((await git('diff --name-only b.txt')).stdout).toBe('b.txt\n')
    expect(await git('diff nope')).toMatchObject({
      stderr: "fatal: ambiguous argument 'nope': unknown revision or path not in the working tree.\n",
      exitCode: 128,
    })
  })

  it('says a binary file differs instead of printing it', async () => {
    const { git, write } = await committedProject({ 'a.bin': 'x\u0000y' })
    await write('a.bin', 'x\u0000z')
    expect((await git('diff')).stdout).toContain('Binary files a/a.bin and b/a.bin differ\n')
  })
})

describe('git show and rev-parse', () => {
  it('show prints the commit and its patch; the root commit against nothing', async () => {
    const { git, write } = await committedProject({ 'a.txt': 'a\n' })
    await write('a.txt', 'b\n')
    await git('commit -am second')
    expect((await git('show')).stdout).toMatch(
      new RegExp(`^commit ${OID} \\(HEAD -> main\\)\nAuthor: .+\nDate:   .+\n\n    second\n\ndiff --git a/a.txt b/a.txt\nindex ${SHORT}\\.\\.${SHORT} 100644\n--- a/a.txt\n\\+\\+\\+ b/a.txt\n@@ -1 \\+1 @@\n-a\n\\+b\n$`),
    )
    expect((await git('show HEAD~1 --stat')).stdout).toMatch(/\n\n    first\n\n a\.txt \| 1 \+\n 1 file changed, 1 insertion\(\+\)\n$/)
    expect((await git('show HEAD~1:a.txt')).stdout).toBe('a\n')
    expect(await git('show HEAD~5')).toMatchObject({ exitCode: 128 })
  })

  it('rev-parse resolves HEAD, short ids, the branch name and the top level', async () => {
    const { git } = await committedProject({ 'a.txt': 'a\n', 'src/b.ts': 'b\n' })
    const head = (await git('rev-parse HEAD')).stdout
    expect(head).toMatch(new RegExp(`^${OID}\n$`))
    expect((await git('rev-parse --short HEAD')).stdout).toBe(`${head.slice(0, 7)}\n`)
    expect((await git('rev-parse --abbrev-ref HEAD')).stdout).toBe('main\n')
    expect((await git('rev-parse --show-toplevel', { cwd: '/workspace/src' })).stdout).toBe('/workspace\n')
    expect((await git(`log --oneline ${head.slice(0, 7)}`)).stdout).toMatch(/ first\n$/)
  })

  it('rev-parse HEAD before the first commit fails as git does', async () => {
    const { git } = gitProject()
    await git('init')
    const result = await git('rev-parse HEAD')
    expect(result.exitCode).toBe(128)
    expect(result.stderr).toContain("fatal: ambiguous argument 'HEAD': unknown revision")
  })
})
