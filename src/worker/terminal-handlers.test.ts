import { describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from '../workspace/local/testing/memory-workspace'
import { terminalHandlers } from './terminal-handlers'

function setup(files: Record<string, string> = {}) {
  const workspace = createMemoryWorkspace(files)
  const handlers = terminalHandlers(async () => workspace)
  const open = async () => {
    const chunks: string[] = []
    const info = await handlers.terminalOpen({ projectID: 'project_1' }, (chunk) => chunks.push(chunk))
    const run = async (command: string) => {
      chunks.length = 0
      const result = await handlers.terminalRun({ terminalID: info.terminalID, command })
      return { ...result, output: chunks.join(''), chunks: [...chunks] }
    }
    return { info, run }
  }
  return { workspace, handlers, open }
}

describe('terminal handlers', () => {
  it('keep each terminal\'s cwd and variables between commands, apart from the other terminals', async () => {
    const { open } = setup({ 'src/a.ts': '', 'docs/b.md': '' })
    const one = await open()
    const two = await open()
    expect(one.info.cwd).toBe('/workspace')
    expect(await one.run('cd src; export GREETING=hi')).toMatchObject({ exitCode: 0, cwd: '/workspace/src' })
    expect((await one.run('echo "$GREETING"; ls')).output).toBe('hi\na.ts\n')
    await two.run('cd docs')
    expect((await two.run('ls; echo "[$GREETING]"')).output).toBe('b.md\n[]\n')
    expect((await one.run('pwd')).output).toBe('/workspace/src\n')
  })

  it('stops a running command on cancel, and the terminal runs the next one', async () => {
    const { handlers, open } = setup()
    const terminal = await open()
    const running = terminal.run('sleep 30')
    // One command at a time: a second one while the first runs is refused, not interleaved.
    await expect(handlers.terminalRun({ terminalID: terminal.info.terminalID, command: 'true' })).rejects.toMatchObject({ name: 'TerminalBusyError' })
    handlers.terminalCancel(terminal.info.terminalID)
    expect(await running).toMatchObject({ exitCode: 130, aborted: true })
    expect((await terminal.run('echo after')).output).toBe('after\n')
  })

  it('writes files into the project, and forgets a closed terminal', async () => {
    const { workspace, handlers, open } = setup()
    const terminal = await open()
    await terminal.run('mkdir out && echo made > out/file.txt')
    expect(await workspace.readText('/workspace/out/file.txt')).toBe('made\n')
    handlers.terminalClose(terminal.info.terminalID)
    await expect(terminal.run('ls')).rejects.toMatchObject({ name: 'NotFoundError', data: { kind: 'terminal' } })
  })

  it('sends the newest 5,000 lines of a large output in pieces the page takes one at a time, saying how much it skipped', async () => {
    const workspace = createMemoryWorkspace({})
    const handlers = terminalHandlers(async () => workspace)
    const pieces: string[] = []
    let shown = Promise.resolve()
    let showing = 0
    let most = 0
    // A page that shows each piece a task later: the next must not come before it has.
    const info = await handlers.terminalOpen({ projectID: 'project_1' }, (piece) => {
      pieces.push(piece)
      most = Math.max(most, ++showing)
      shown = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => void showing--)
      return shown
    })
    await handlers.terminalRun({ terminalID: info.terminalID, command: 'seq 1 200000' })
    const output = pieces.join('')
    expect(most).toBe(1)
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(64 * 1024)
    expect(output).toMatch(/^\x18\x1b\[0m\r\n\x1b\[2m… [\d,]+ characters of output skipped …\x1b\[0m\r\n195001\n195002\n/)
    expect(output.endsWith('199999\n200000\n')).toBe(true)
  })
})
