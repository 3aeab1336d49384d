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
  /** What the screen has not shown yet, in order (a real screen paces it to the frames); output may be dropped. */
  let waiting: { data: string; output: boolean }[] = []
  const flush = () => {
    written += waiting.map((entry) => entry.data).join('')
    waiting = []
    return written
  }
  let typed: (data: string) => void = () => {}
  const screen: TerminalScreen = {
    cols: 80,
    write: (data) => void waiting.push({ data, output: false }),
    output: async (data) => void waiting.push({ data, output: true }),
    discardOutput: () => void (waiting = waiting.filter((entry) => !entry.output)),
    clear: () => (written = ''),
    focus: () => {},
    onData: (listener) => (typed = listener),
    dispose: () => {},
  }
  const session = new ShellSession({ api, projectID: 'project_1', screen, wrap: (fn) => fn })
  // What the user reads: colours, cursor moves and resets left out, and the output shown so far.
  const shown = () => flush().replace(/\x18|\x1b\[[0-9;!]*[A-Za-z]/g, '')
  return { api, session, runs, type: (data: string) => typed(data), output: (chunk: string) => output(chunk), shown, written: flush }
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

  it('shows nothing more of a command stopped with Ctrl+C, neither what waited to be shown nor what it still sends', async () => {
    const t = setup()
    await t.session.open()
    t.type('cat big.log\r')
    t.output('line 1\n')
    expect(t.shown()).toContain('line 1')
    t.output('line 2\n')
    t.type('\x03')
    t.output('line 3\n')
    t.runs[0]!.finish({ exitCode: 130, aborted: true })
    await settle()
    t.type('echo next\r')
    t.output('next\n')
    expect(t.shown()).toBe('~ $ cat big.log\r\nline 1\n^C\r\n~ $ echo next\r\nnext\n')
  })

  it('undoes what the output set (an open control string, a character set, hidden text) before each prompt', async () => {
    const t = setup()
    await t.session.open()
    t.type('cat hostile\r')
    t.output('\x1b(0\x1b[8m\x1b]2;unterminated')
    t.runs[0]!.finish({})
    await settle()
    const prompt = t.written().lastIndexOf('~')
    expect(t.written().slice(0, prompt)).toMatch(/unterminated\x18\x1b\[!p(\r\n)?\x1b\[1;34m$/)
  })
})
