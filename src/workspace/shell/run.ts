import type { ExecResult, Workspace } from '../workspace'
import { describeError, Input } from './commands/types'
import { LoopControl, ShellExit, ShellStopped } from './control'
import { Interpreter, type ShellState } from './interpreter'
import { parseScript, ShellSyntaxError } from './parse'
import { Terminal } from './sinks'

export interface ShellOptions {
  /** Only its file methods are used. */
  fs: Workspace
  cwd: string
  env?: Record<string, string>
  signal?: AbortSignal
  /** Milliseconds; afterwards the run stops with status 124. */
  timeout?: number
  onOutput?: (chunk: string) => void
  now?: () => number
}

/**
 * Runs a command line in the simulated shell. Output streams through `onOutput` as commands write it; an abort
 * (status 130) or timeout (status 124) settles the result at once and stops the script before its next command.
 */
export async function runShell(command: string, options: ShellOptions): Promise<ExecResult> {
  const terminal = new Terminal(options.onOutput)
  if (options.signal?.aborted) return { exitCode: 130, output: '', timedOut: false, aborted: true }
  const controller = new AbortController()
  let reason: 'timeout' | 'abort' | undefined
  const stop = (why: 'timeout' | 'abort') => {
    if (reason) return
    reason = why
    terminal.close()
    controller.abort()
  }
  const stopped = new Promise<undefined>((resolve) => controller.signal.addEventListener('abort', () => resolve(undefined)))
  const onAbort = () => stop('abort')
  options.signal?.addEventListener('abort', onAbort)
  const timer = options.timeout !== undefined && options.timeout > 0 ? setTimeout(() => stop('timeout'), options.timeout) : undefined
  try {
    const execution = execute(command, options, controller.signal, terminal)
    // After a stop nobody waits for the rest of the run; its late failure must not surface as unhandled.
    execution.catch(() => undefined)
    const exitCode = await Promise.race([execution, stopped])
    if (reason || exitCode === undefined) {
      return { exitCode: reason === 'timeout' ? 124 : 130, output: terminal.text, timedOut: reason === 'timeout', aborted: reason === 'abort' }
    }
    return { exitCode, output: terminal.text, timedOut: false, aborted: false }
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

async function execute(command: string, options: ShellOptions, signal: AbortSignal, terminal: Terminal): Promise<number | undefined> {
  const io = { input: new Input(''), stdout: terminal, stderr: terminal }
  const cwd = await options.fs.stat(options.cwd)
  if (cwd?.type !== 'directory') {
    terminal.write(`sh: cd: ${options.cwd}: ${cwd ? 'Not a directory' : 'No such file or directory'}\n`)
    return 1
  }
  let script
  try {
    script = parseScript(command)
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error
    terminal.write(`sh: ${error.message}\n`)
    return 2
  }
  const state: ShellState = {
    cwd: options.cwd,
    variables: {
      HOME: options.fs.root,
      PWD: options.cwd,
      PATH: '/usr/local/bin:/usr/bin:/bin',
      USER: 'user',
      SHELL: '/bin/sh',
      ...options.env,
    },
    positional: [],
    status: 0,
  }
  const interpreter = new Interpreter({ fs: options.fs, signal, now: options.now ?? Date.now })
  try {
    return await interpreter.script(script, state, io)
  } catch (error) {
    if (error instanceof ShellExit) return error.code
    if (error instanceof ShellStopped) return undefined
    // `break` outside a loop: bash ignores it.
    if (error instanceof LoopControl) return state.status
    // A bug in a builtin should reach the model as output it can react to, not as a failed tool call.
    terminal.write(`sh: ${describeError(error)}\n`)
    return 1
  }
}
