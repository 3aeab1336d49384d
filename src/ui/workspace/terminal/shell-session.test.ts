import { describe, expect, it, vi } from 'vitest'
import type { TerminalRunResult } from '../../../core/protocol'
import { ShellSession, type TerminalApi } from './shell-session'
import type { TerminalScreen } from './xterm-view'

/** A worker whose commands end when the test says, streaming what the test says. */
function setup() {
  let output: (chunk: string) => void = () => {}
  const runs: { command: string; finish: (result: Partial<TerminalRunResult>) => void }[] = []
  const api = {
    terminalOpen: vi.fn(async (_input: { projectID: string }, onOutput: (chunk: string) => void) => {
      output = onOutput
      return { terminalID: 'term_1', cwd: '/workspace', home: '/workspace' }
    }),
    terminalRun: vi.fn(
      (input: { terminalID: string; command: string }) =>
        new Promise<TerminalRunResult>((resolve) =>
          runs.push({ command: input.command, finish: (result) => resolve({ exitCode: 0, cwd: '/workspace', aborted: false, ...result }) }),
        ),
    ),
    terminalCancel: vi.fn(async () => {}),
    terminalClose: vi.fn(async () => {}),
  } satisfies TerminalApi
  let written = ''
  let typed: (data: string) => void = () => {}
  const screen: TerminalScreen = {
    cols: 80,
    write: (data) => (written += data),
    clear: () => (written = ''),
    focus: () => {},
    onData: (listener) => (typed = listener),
    dispose: () => {},
  }
  const session = new ShellSession({ api, projectID: 'project_1', screen, wrap: (fn) => fn })
  // What the user reads: colours and cursor moves left out.
  const shown = () => written.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
  return { api, session, runs, type: (data: string) => typed(data), output: (chunk: string) => output(chunk), shown }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('a shell session', () => {
  it('shows a prompt with the cwd, runs the line, and prompts on a new line even after output without one', async () => {
    const t = setup()
    await t.session.open()
    expect(t.shown()).toBe('~ $ ')
    t.type('cd src\r')
    expect(t.runs.map((run) => run.command)).toEqual(['cd src'])
    t.runs[0]!.finish({ cwd: '/workspace/src' })
    await settle()
    t.type('printf x\r')
    t.output('x')
    t.runs[1]!.finish({ cwd: '/workspace/src', exitCode: 0 })
    await settle()
    expect(t.shown()).toBe('~ $ cd src\r\n~/src $ printf x\r\nx\r\n~/src $ ')
  })

  it('runs what was typed while a command ran after it, and Ctrl+C stops the command and drops that', async () => {
    const t = setup()
    await t.session.open()
    t.type('sleep 1\r')
    t.type('echo later\r')
    expect(t.runs.map((run) => run.command)).toEqual(['sleep 1'])
    t.runs[0]!.finish({})
    await settle()
    expect(t.runs.map((run) => run.command)).toEqual(['sleep 1', 'echo later'])
    t.runs[1]!.finish({})
    await settle()

    t.type('sleep 30\r')
    t.type('rm -rf x\r')
    t.type('\x03')
    expect(t.api.terminalCancel).toHaveBeenCalledWith('term_1')
    t.runs[2]!.finish({ exitCode: 130, aborted: true })
    await settle()
    expect(t.runs.map((run) => run.command)).toEqual(['sleep 1', 'echo later', 'sleep 30'])
    expect(t.shown().endsWith('~ $ sleep 30\r\n^C\r\n~ $ ')).toBe(true)
  })

  it('closes its terminal in the worker when closed, even before it finished opening', async () => {
    const t = setup()
    const opening = t.session.open()
    t.session.close()
    await opening
    expect(t.api.terminalClose).toHaveBeenCalledWith('term_1')
    expect(t.shown()).toBe('')
  })
})
