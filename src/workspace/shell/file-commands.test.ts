import { describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import { runShell } from './run'

function clock() {
  let time = Date.UTC(2025, 0, 1)
  return () => (time += 60_000)
}

async function sh(command: string, files: Record<string, string> = {}) {
  const fs = createMemoryWorkspace(files, { now: clock() })
  const result = await runShell(command, { fs, cwd: '/workspace'})
  return { output: result.output, exitCode: result.exitCode, fs }
}

const project = {
  'src/a.ts': 'export const a = 1\n',
  'src/b.ts': 'export const b = 2\n',
  'src/deep/c.tsx': 'export {}\n',
  'README.md': '# Title\n',
  '.env': 'SECRET=1\n',
}

describe('ls', () => {
  it.each([
    ['ls', 'README.md\nsrc\n'],
    ['ls -a', '.\n..\n.env\nREADME.md\nsrc\n'],
    ['ls -A src', 'a.ts\nb.ts\ndeep\n'],
    ['ls -F src', 'a.ts\nb.ts\ndeep/\n'],
    ['ls -r src', 'deep\nb.ts\na.ts\n'],
    ['ls -d src', 'src\n'],
    ['ls -R src', 'src:\na.ts\nb.ts\ndeep\n\nsrc/deep:\nc.tsx\n'],
    ['ls README.md src/deep', 'README.md\n\nsrc/deep:\nc.tsx\n'],
  ])('%s', async (command, expected) => {
    expect((await sh(command, project)).output).toBe(expected)
  })

  it('shows sizes and times with -l', async () => {
    const { output } = await sh('ls -l src', project)
    // just-bash shows the year for a file this old, as GNU does for files over six months old.
    expect(output).toMatch(/^total \d+\n-rw-r--r-- 1 user user +19 Jan {2}1 {2}2025 a\.ts\n/)
    expect(output).toMatch(/drwxr-xr-x 1 user user +\d+ Jan {2}1 {2}2025 deep\/\n$/)
  })

  it('fails with status 2 for a missing path', async () => {
    expect(await sh('ls nope')).toMatchObject({ exitCode: 2, output: 'ls: nope: No such file or directory\n' })
  })
})

describe('file commands', () => {
  it('makes directories, with -p for parents and existing ones', async () => {
    const { output, exitCode, fs } = await sh('mkdir a/b; mkdir -p a/b/c && mkdir -p a/b/c && mkdir a')
    expect(output).toBe("mkdir: cannot create directory 'a/b': No such file or directory\nmkdir: cannot create directory 'a': File exists\n")
    expect(exitCode).toBe(1)
    expect(await fs.stat('a/b/c')).toMatchObject({ type: 'directory' })
  })

  it('removes files, and directories only with -r', async () => {
    const { output, fs } = await sh('rm src; rm -r src && rm README.md && rm -f nothing; rm nothing', project)
    expect(output).toBe("rm: cannot remove 'src': Is a directory\nrm: cannot remove 'nothing': No such file or directory\n")
    expect((await fs.list('/workspace')).map((entry) => entry.name)).toEqual(['.env'])
  })

  it('refuses to remove the workspace itself', async () => {
    const { fs } = await sh('rm -rf /workspace; rm -rf .', project)
    expect(await fs.stat('src/a.ts')).toBeDefined()
  })

  // Ours was right: GNU rm says it refuses (status 1); just-bash's `rm -rf` leaves the workspace but says nothing.
  it.fails('says so with status 1 when refusing to remove the workspace', async () => {
    expect((await sh('rm -rf .', project)).exitCode).toBe(1)
  })

  it('removes only empty directories with rmdir', async () => {
    const { output } = await sh('mkdir empty && rmdir empty && rmdir src', project)
    expect(output).toBe("rmdir: failed to remove 'src': Directory not empty\n")
  })

  it('copies files and trees, and needs -r for a directory', async () => {
    const { output, fs } = await sh('cp README.md copy.md && cp src out; cp -r src out && cp README.md src/a.ts out', project)
    expect(output).toBe("cp: -r not specified; omitting directory 'src'\n")
    expect(await fs.readText('copy.md')).toBe('# Title\n')
    expect(await fs.readText('out/deep/c.tsx')).toBe('export {}\n')
    expect(await fs.readText('out/a.ts')).toBe('export const a = 1\n')
    expect(await fs.readText('out/README.md')).toBe('# Title\n')
  })

  it('moves files and directories', async () => {
    const { fs } = await sh('mv README.md docs.md && mkdir lib && mv src lib/ && mv docs.md lib', project)
    expect(await fs.stat('src')).toBeUndefined()
    expect(await fs.readText('lib/src/deep/c.tsx')).toBe('export {}\n')
    expect(await fs.readText('lib/docs.md')).toBe('# Title\n')
  })

  it('will not move a directory into itself', async () => {
    const { output, exitCode } = await sh('mv src src/deep', project)
    expect(exitCode).toBe(1)
    expect(output).toBe("mv: cannot move 'src' into itself, '/workspace/src/deep/src'\n")
  })

  it('touches new and existing files', async () => {
    const { fs, output } = await sh('touch new.txt src/a.ts; touch missing/x', project)
    expect(await fs.readText('new.txt')).toBe('')
    expect(await fs.readText('src/a.ts')).toBe('export const a = 1\n')
    // just-bash makes the missing directory (bash says `No such file or directory`).
    expect(output).toBe('')
  })

  it('concatenates with cat, numbering with -n, reading stdin for -', async () => {
    expect((await sh('echo mid | cat README.md - src/a.ts', project)).output).toBe('# Title\nmid\nexport const a = 1\n')
    expect((await sh('cat -n src/a.ts', project)).output).toBe('     1\texport const a = 1\n')
    expect(await sh('cat src', project)).toMatchObject({ exitCode: 1 })
  })

  // Ours was right: just-bash's cat says "No such file or directory" for any file it cannot read.
  it.fails('says a directory is a directory when cat is given one', async () => {
    expect((await sh('cat src', project)).output).toBe('cat: src: Is a directory\n')
  })

  it('copies stdin to files with tee', async () => {
    const { output, fs } = await sh('echo hi | tee a.txt b.txt && echo more | tee -a a.txt > /dev/null')
    expect(output).toBe('hi\n')
    expect(await fs.readText('a.txt')).toBe('hi\nmore\n')
    expect(await fs.readText('b.txt')).toBe('hi\n')
  })

  it('changes directory with cd, back with cd -', async () => {
    expect((await sh('cd src/deep; pwd; cd -; cd; pwd; cd nope', project)).output).toBe(
      '/workspace/src/deep\n/workspace\n/workspace\nbash: cd: nope: No such file or directory\n',
    )
  })
})

describe('find', () => {
  it.each([
    ['find src', 'src\nsrc/a.ts\nsrc/b.ts\nsrc/deep\nsrc/deep/c.tsx\n'],
    ['find . -name "*.ts"', './src/a.ts\n./src/b.ts\n'],
    ['find . -type d', '.\n./src\n./src/deep\n'],
    ['find . -maxdepth 1 -type f', './.env\n./README.md\n'],
    ['find src -name "*.ts" -o -name "*.tsx"', 'src/a.ts\nsrc/b.ts\nsrc/deep/c.tsx\n'],
    ['find src -not -name "*.ts" -type f', 'src/deep/c.tsx\n'],
    ['find . -path ./src/deep -prune -o -type f -print', './.env\n./README.md\n./src/a.ts\n./src/b.ts\n'],
    ['find src -iname "A.TS"', 'src/a.ts\n'],
    ['find src -name "*.ts" -exec wc -l {} \\;', '1 src/a.ts\n1 src/b.ts\n'],
    ['find src -name "*.ts" -exec cat {} +', 'export const a = 1\nexport const b = 2\n'],
  ])('%s', async (command, expected) => {
    expect((await sh(command, project)).output).toBe(expected)
  })

  it('deletes what it finds with -delete', async () => {
    const { fs } = await sh('find . -name "*.ts" -delete', project)
    expect(await fs.glob('**/*')).toEqual(['/workspace/.env', '/workspace/README.md', '/workspace/src/deep/c.tsx'])
  })

  it('reports a missing starting point', async () => {
    expect(await sh('find nope')).toMatchObject({ exitCode: 1, output: 'find: nope: No such file or directory\n' })
  })
})
