import type { CommandNode, CustomCommand, ScriptNode, StatementNode, WordNode } from 'just-bash'
import type { GitRemotes, Program, ProgramFiles, ProgramRequest } from '../runtime/program'
import type { ExecResult, ShellState } from '../workspace'
import { npmCommand } from './npm-command'
import { NEEDS_WEBCONTAINER, PROGRAMS } from './programs'
import { tarCommand } from './tar-command'
import { whichCommand } from './which-command'
import { createWorkspaceFs, type ShellFiles } from './workspace-fs'

export interface ShellOptions {
  /** The files commands see; `programs` get the same ones. */
  fs: ShellFiles & ProgramFiles
  cwd: string
  env?: Record<string, string>
  signal?: AbortSignal
  /** Milliseconds; afterwards the run stops with status 124. */
  timeout?: number
  onOutput?: (chunk: string) => void
  /** The runtimes' notices for the user (`ProgramRequest.onNotice`), kept out of the output. */
  onNotice?: (text: string) => void
  /** The runtimes' first downloads as numbers (`ProgramRequest.onDownload`). */
  onDownload?: ProgramRequest['onDownload']
  /** Stand-ins for the runtimes behind `python`, `node`, `git` (tests); by default each is imported on first use. */
  programs?: Partial<Record<string, Program>>
  /** How `git` reaches remotes; no other program gets it (they run without network). */
  remotes?: GitRemotes
}

/** Where each top-level statement's output is written, so it reaches `onOutput` as soon as the statement ends. */
const TERMINAL = '/dev/tabcode-terminal'
/** The command put at the top of every loop body so Stop and the timeout can stop a busy loop (see `yieldCommand`). */
const YIELD = '__tabcode_yield'
/** Set on a top-level `python …`/`node …`/`git …` so its output streams as it comes instead of when it ends. */
const DIRECT = '__TABCODE_DIRECT'
/** How long a loop may hold the worker before it lets other work (a Stop, a timer) in. */
const YIELD_EVERY_MS = 25

type JustBash = typeof import('just-bash')
let library: Promise<JustBash> | undefined
/** just-bash is ~350 KB gzip: loaded on the first command, in the worker, never with the page. */
function loadLibrary(): Promise<JustBash> {
  library ??= import('../buffer').then(() => import('just-bash'))
  return library
}

/**
 * Runs a command line in just-bash over the workspace's files. Each top-level statement's output (stdout and
 * stderr together) streams through `onOutput` when the statement ends; an abort (status 130) or timeout (status
 * 124) settles the result at once, and the script stops at its next statement or loop turn.
 */
export async function runShell(command: string, options: ShellOptions): Promise<ExecResult> {
  if (options.signal?.aborted) return { exitCode: 130, output: '', timedOut: false, aborted: true }
  let output = ''
  let closed = false
  const write = (chunk: string) => {
    if (closed || chunk === '') return
    output += chunk
    options.onOutput?.(chunk)
  }
  const controller = new AbortController()
  let reason: 'timeout' | 'abort' | undefined
  const stop = (why: 'timeout' | 'abort') => {
    if (reason) return
    reason = why
    closed = true
    controller.abort()
  }
  const stopped = new Promise<undefined>((resolve) => controller.signal.addEventListener('abort', () => resolve(undefined)))
  const onAbort = () => stop('abort')
  options.signal?.addEventListener('abort', onAbort)
  const timer = options.timeout !== undefined && options.timeout > 0 ? setTimeout(() => stop('timeout'), options.timeout) : undefined
  try {
    let shell: ShellState | undefined
    const execution = execute(command, options, controller.signal, write, (state) => (shell = state))
    // After a stop nobody waits for the rest of the run; its late failure must not surface as unhandled.
    execution.catch(() => undefined)
    const exitCode = await Promise.race([execution, stopped])
    if (reason || exitCode === undefined) {
      return { exitCode: reason === 'timeout' ? 124 : 130, output, timedOut: reason === 'timeout', aborted: reason === 'abort' }
    }
    return { exitCode, output, timedOut: false, aborted: false, ...(shell ? { shell } : {}) }
  } finally {
    closed = true
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

async function execute(
  command: string,
  options: ShellOptions,
  signal: AbortSignal,
  write: (chunk: string) => void,
  ended: (state: ShellState) => void,
): Promise<number> {
  const cwd = await options.fs.stat(options.cwd)
  if (cwd?.type !== 'directory') {
    write(`bash: cd: ${options.cwd}: ${cwd ? 'Not a directory' : 'No such file or directory'}\n`)
    return 1
  }
  const { Bash, defineCommand } = await loadLibrary()
  const files = createWorkspaceFs(options.fs)
  const decoder = new TextDecoder()
  // Redirections to the terminal path are the statements' output, not a file.
  const fs = {
    ...files,
    writeFile: (path, content, encoding) => (path === TERMINAL ? terminal(content) : files.writeFile(path, content, encoding)),
    appendFile: (path, content, encoding) => (path === TERMINAL ? terminal(content) : files.appendFile(path, content, encoding)),
  } satisfies typeof files
  async function terminal(content: string | Uint8Array) {
    write(typeof content === 'string' ? content : decoder.decode(content))
  }

  const customCommands: CustomCommand[] = [
    defineCommand(YIELD, yieldCommand()),
    ...NEEDS_WEBCONTAINER.map((name) =>
      defineCommand(name, async () => ({
        stdout: '',
        stderr: `${name}: needs WebContainer (Node/npm projects); the offline workspace has no npm\n`,
        exitCode: 127,
      })),
    ),
    defineCommand('npm', async (args, context) => {
      const env = Object.fromEntries(context.env)
      const direct = env[DIRECT] === '1'
      return npmCommand(options.fs)(args, { ...context, env: withoutDirect(context.env) }, direct ? write : undefined)
    }),
    defineCommand('tar', tarCommand),
    defineCommand('which', whichCommand),
    ...Object.entries(PROGRAMS).map(([name, importProgram]) =>
      defineCommand(name, async (args, context) => {
        const env = Object.fromEntries(context.env)
        const direct = env[DIRECT] === '1'
        delete env[DIRECT]
        let stdout = ''
        let stderr = ''
        const program = options.programs?.[name] ?? (await importProgram())
        const result = await program({
          argv: [name, ...args],
          cwd: context.cwd,
          env,
          stdin: utf8(String(context.stdin)),
          files: options.fs,
          signal: context.signal ?? signal,
          onStdout: (chunk) => (direct ? write(chunk) : (stdout += chunk)),
          onStderr: (chunk) => (direct ? write(chunk) : (stderr += chunk)),
          onNotice: options.onNotice,
          onDownload: options.onDownload,
          ...(name === 'git' && options.remotes ? { remotes: options.remotes } : {}),
        })
        return { stdout, stderr, exitCode: result.exitCode }
      }),
    ),
  ]
  const bash = new Bash({
    fs,
    cwd: options.cwd,
    env: { HOME: options.fs.root, USER: 'user', SHELL: '/bin/bash', PATH: '/usr/local/bin:/usr/bin:/bin', ...options.env },
    customCommands,
    // The timeout and Stop end a runaway loop (each loop turn yields), so the counts may be much larger than
    // just-bash's defaults; the wall-clock limit backs up the timeout.
    executionLimits: {
      maxCommandCount: 10_000_000,
      maxLoopIterations: 10_000_000,
      ...(options.timeout ? { maxExecutionTimeMs: options.timeout + 1000 } : {}),
    },
  })
  bash.registerTransformPlugin({ name: 'tabcode-terminal', transform: ({ ast }) => ({ ast: streamStatements(withLoopYields(ast)) }) })
  let result
  try {
    result = await bash.exec(command, { cwd: options.cwd, signal, rawScript: true })
  } catch (error) {
    // A failure inside a command (a file it could not write) reaches the model as output it can act on.
    if (signal.aborted) return 130
    write(`bash: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  // Anything not written through the terminal path (a parse error, a limit) comes back here.
  write(result.stdout)
  write(result.stderr)
  ended(shellState(result.env, options.cwd))
  return result.exitCode
}

/** The shell's own bookkeeping: recomputed on every run, and some (the options) must not be set from outside. */
const SHELL_MANAGED = new Set(['PWD', 'SHELLOPTS', 'BASHOPTS', 'OPTIND', DIRECT])

/**
 * What a next run needs to continue where this one ended. just-bash resets cwd and variables on every `exec`
 * (only the files are shared), so the state is read from the run's final environment and carried explicitly.
 * Its environment holds every variable, exported or not, which is what a person at a prompt expects to keep.
 */
function shellState(env: Record<string, string>, cwd: string): ShellState {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !SHELL_MANAGED.has(name)) kept[name] = value
  }
  return { cwd: env.PWD || cwd, env: kept }
}

/** Lets other tasks run (a Stop message, the timeout) once a loop has held the thread for `YIELD_EVERY_MS`. */
function yieldCommand() {
  let last = performance.now()
  return async () => {
    if (performance.now() - last >= YIELD_EVERY_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0))
      last = performance.now()
    }
    return { stdout: '', stderr: '', exitCode: 0 }
  }
}

const literal = (value: string): WordNode => ({ type: 'Word', parts: [{ type: 'Literal', value }] })

function statementOf(command: CommandNode): StatementNode {
  return {
    type: 'Statement',
    pipelines: [{ type: 'Pipeline', commands: [command], negated: false, timed: false, timePosix: false }],
    operators: [],
    background: false,
  } as StatementNode
}

/**
 * Sends every top-level command's output to the terminal path as it ends: each pipeline's last command gets
 * `>>TERMINAL 2>&1` and the others `2>>TERMINAL`, put before its own redirections (so `> file` still wins, as the
 * later redirection does in bash). The pipelines stay as they are (same shell, same `$?` and `PIPESTATUS`).
 */
function streamStatements(ast: ScriptNode): ScriptNode {
  const toTerminal = (fd: number | null, operator: '>>' | '>&', target: string) => ({
    type: 'Redirection',
    fd,
    operator,
    target: literal(target),
  })
  return {
    ...ast,
    statements: ast.statements.map((statement) => {
      const direct = directProgram(statement)
      if (direct) {
        direct.assignments = [...direct.assignments, { type: 'Assignment', name: DIRECT, value: literal('1'), append: false, array: null }]
      }
      return {
        ...statement,
        pipelines: statement.pipelines.map((pipeline) => ({
          ...pipeline,
          commands: pipeline.commands.map((command, index) => {
            // A function's redirections would apply at every call, wherever its output goes then.
            if (command.type === 'FunctionDef') return command
            const last = index === pipeline.commands.length - 1
            const ours = last ? [toTerminal(null, '>>', TERMINAL), toTerminal(2, '>&', '1')] : [toTerminal(2, '>>', TERMINAL)]
            return { ...command, redirections: [...ours, ...command.redirections] } as CommandNode
          }),
        })),
      }
    }),
  }
}

/** A statement that is just `python …` or `npm …` (no pipe, no redirection): its output can go straight to the terminal. */
function directProgram(statement: StatementNode): Extract<CommandNode, { type: 'SimpleCommand' }> | undefined {
  if (statement.pipelines.length !== 1 || statement.background) return undefined
  const [pipeline] = statement.pipelines
  if (pipeline?.commands.length !== 1) return undefined
  const [command] = pipeline.commands
  if (command?.type !== 'SimpleCommand' || command.redirections.length > 0) return undefined
  const [part, ...rest] = command.name?.parts ?? []
  return rest.length === 0 && part?.type === 'Literal' && (part.value in PROGRAMS || part.value === 'npm') ? command : undefined
}

const LOOPS = new Set(['While', 'Until', 'For', 'CStyleFor'])

/** Puts the yield command first in every loop body, however deeply nested (functions, conditions, substitutions). */
function withLoopYields<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withLoopYields) as T
  if (!node || typeof node !== 'object') return node
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) copy[key] = withLoopYields(value)
  if (LOOPS.has(copy.type as string) && Array.isArray(copy.body)) {
    const yieldHere = { type: 'SimpleCommand', name: literal(YIELD), args: [], assignments: [], redirections: [] } as CommandNode
    copy.body = [statementOf(yieldHere), ...copy.body]
  }
  return copy as T
}

/** The environment without our marker, so a script `npm` runs does not inherit it. */
function withoutDirect(env: Map<string, string>): Map<string, string> {
  const copy = new Map(env)
  copy.delete(DIRECT)
  return copy
}

/** just-bash hands stdin over as latin1-shaped bytes (one char per byte). */
function utf8(bytes: string): string {
  return new TextDecoder().decode(Uint8Array.from(bytes, (char) => char.charCodeAt(0)))
}
