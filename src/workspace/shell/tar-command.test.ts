import { describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import { runShell } from './run'
import { parseTarArguments } from './tar-command'

async function sh(command: string, fs = createMemoryWorkspace({ 'src/a.txt': 'alpha\n', 'src/deep/b.txt': 'beta\n' })) {
  return { ...(await runShell(command, { fs, cwd: '/workspace' })), fs }
}

describe('tar', () => {
  it('reads GNU tar’s argument forms', () => {
    expect(parseTarArguments(['czf', 'out.tgz', 'src'])).toMatchObject({ mode: 'create', gzip: true, file: 'out.tgz', names: ['src'] })
    expect(parseTarArguments(['-xvf', 'a.tar', '-C', 'dest'])).toMatchObject({ mode: 'extract', verbose: true, file: 'a.tar', directory: 'dest' })
    expect(parseTarArguments(['--list', '--file=a.tar'])).toMatchObject({ mode: 'list', file: 'a.tar' })
    expect(parseTarArguments(['-cx'])).toMatch(/more than one/)
    expect(parseTarArguments(['-cf', 'a.tar'])).toBe('Cowardly refusing to create an empty archive')
  })

  it('round-trips a directory through a gzip archive, and lists it', async () => {
    const { output, exitCode, fs } = await sh('tar czf out.tgz src && tar tzf out.tgz && mkdir dest && tar xzf out.tgz -C dest && cat dest/src/deep/b.txt')
    expect(output).toBe('src/\nsrc/a.txt\nsrc/deep/\nsrc/deep/b.txt\nbeta\n')
    expect(exitCode).toBe(0)
    expect(await fs.readText('dest/src/a.txt')).toBe('alpha\n')
    // gzip's own reader takes the archive too: it is a plain gzip stream.
    expect((await sh('cp out.tgz copy.tar.gz && gunzip copy.tar.gz && tar tf copy.tar src/a.txt', fs)).output).toBe('src/a.txt\n')
  })

  it('extracts a plain archive with -v into an existing directory only', async () => {
    const { output } = await sh('tar cf plain.tar src/a.txt; tar xvf plain.tar -C x; echo "status $?"; mkdir x && tar xvf plain.tar -C x && cat x/src/a.txt')
    expect(output).toBe('tar: x: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\nstatus 2\nsrc/a.txt\nalpha\n')
  })

  it('refuses a member that climbs out of the target, and says when the archive is missing', async () => {
    expect(await sh('tar xf nothing.tar')).toMatchObject({ exitCode: 2, output: expect.stringContaining('tar: nothing.tar: Cannot open: No such file or directory') })
    expect((await sh('tar cf a.tar src; tar tf a.tar nope')).output).toContain('tar: nope: Not found in archive')
  })
})
