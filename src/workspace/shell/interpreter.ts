import { resolvePath } from '../path'
import type { Workspace } from '../workspace'
import type { Command, CompoundCommand, Pipeline, Redirect, Script, SimpleCommand } from './ast'
import { commandType, COMMANDS, UNAVAILABLE_MESSAGE } from './commands/index'
import { describeError, Input, type CommandContext, type CommandIO, type Sink } from './commands/types'
import { LoopControl, ShellExit, ShellStopped } from './control'
import { expandWord, expandWords, type Expander } from './expand'
import { expandGlob } from './glob-expand'
import { parseScript, ShellSyntaxError } from './parse'
import { Capture, devNull, FileSink } from './sinks'

export interface ShellState {
  cwd: string
  variables: Record<string, string>
  /** `$1`, `$2`… of a script run by `sh file args`. */
  positional: string[]
  /** `$?`. */
  status: number
}

/** Where a running command reads and writes. */
export interface Streams {
  input: Input
  stdout: Sink
  stderr: Sink
}

export interface InterpreterOptions {
  fs: Workspace
  signal: AbortSignal
  now: () => number
}

/** Between this many commands the shell lets timers run, so a busy loop still times out. */
const YIELD_EVERY = 100

/** Runs parsed scripts over a workspace. Builtins do the work; this class does control flow, pipes and redirections. */
export class Interpreter {
  private commandsRun = 0

  constructor(private readonly options: InterpreterOptions) {}

  async script(script: Script, state: ShellState, io: Streams): Promise<number> {
    for (const entry of script.entries) {
      if (entry.connector === '&&' && state.status !== 0) continue
      if (entry.connector === '||' && state.status === 0) continue
      state.status = await this.pipeline(entry.pipeline, state, io)
    }
    return state.status
  }

  /** Parses and runs a command line in a subshell (`sh -c`, `sh file`). */
  async source(source: string, state: ShellState, io: Streams): Promise<number> {
    let script: Script
    try {
      script = parseScript(source)
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error
      io.stderr.write(`sh: ${error.message}\n`)
      return 2
    }
    return this.subshell(state, (inner) => this.script(script, inner, io))
  }

  /**
   * Stages run one after another, each reading the previous one's whole output: enough for the filters a coding
   * agent pipes together, and it keeps every builtin a plain function of its input.
   */
  private async pipeline(pipeline: Pipeline, state: ShellState, io: Streams): Promise<number> {
    let status: number
    if (pipeline.commands.length === 1) status = await this.command(pipeline.commands[0]!, state, io)
    else {
      let input = io.input
      status = 0
      for (const [index, command] of pipeline.commands.entries()) {
        const last = index === pipeline.commands.length - 1
        const pipe = last ? undefined : new Capture()
        const stage = { input, stdout: pipe ?? io.stdout, stderr: io.stderr }
        status = await this.subshell(state, (inner) => this.command(command, inner, stage))
        input = new Input(pipe?.text ?? '')
      }
    }
    return pipeline.negated ? Number(status === 0) : status
  }

  /** A copy of the state for `( … )`, pipeline stages and substitutions: their `cd`, variables and `exit` stay inside. */
  private async subshell(state: ShellState, run: (inner: ShellState) => Promise<number>): Promise<number> {
    const inner: ShellState = { ...state, variables: { ...state.variables }, positional: [...state.positional] }
    try {
      return await run(inner)
    } catch (error) {
      if (error instanceof ShellExit) return error.code
      if (error instanceof LoopControl) return 0
      throw error
    }
  }

  private async command(command: Command, state: ShellState, io: Streams): Promise<number> {
    await this.checkpoint()
    try {
      if (command.type === 'simple') return await this.simple(command, state, io)
      return await this.redirected(command.redirects, state, io, (inner) => this.compound(command, state, inner))
    } catch (error) {
      if (error instanceof ShellExit || error instanceof ShellStopped || error instanceof LoopControl) throw error
      io.stderr.write(`sh: ${describeError(error)}\n`)
      return 1
    }
  }

  private async simple(command: SimpleCommand, state: ShellState, io: Streams): Promise<number> {
    const expander = this.expander(state, io)
    // `[[ x == *.ts ]]` compares with the pattern; bash does not expand globs inside it.
    const first = command.words[0]?.parts
    const conditional = first?.length === 1 && first[0]!.type === 'text' && first[0]!.value === '[['
    const argv = await expandWords(command.words, expander, { glob: !conditional })
    const assigned: Record<string, string> = {}
    for (const assignment of command.assignments) assigned[assignment.name] = await expandWord(assignment.value, expander)
    if (argv.length === 0) {
      Object.assign(state.variables, assigned)
      return this.redirected(command.redirects, state, io, async () => 0)
    }
    return this.redirected(command.redirects, state, io, (inner) =>
      this.invoke(argv, state, inner, { ...state.variables, ...assigned }),
    )
  }

  private async compound(command: CompoundCommand, state: ShellState, io: Streams): Promise<number> {
    switch (command.type) {
      case 'subshell':
        return this.subshell(state, (inner) => this.script(command.script, inner, io))
      case 'group':
        return this.script(command.script, state, io)
      case 'if': {
        for (const clause of command.clauses) {
          if ((await this.script(clause.condition, state, io)) === 0) return this.script(clause.body, state, io)
        }
        return command.otherwise ? this.script(command.otherwise, state, io) : 0
      }
      case 'for': {
        const items = await expandWords(command.items, this.expander(state, io))
        let status = 0
        for (const item of items) {
          await this.checkpoint()
          state.variables[command.name] = item
          const outcome = await this.loopBody(command.body, state, io)
          status = state.status
          if (outcome === 'break') break
        }
        return status
      }
      case 'while': {
        let status = 0
        for (;;) {
          await this.checkpoint()
          const condition = await this.script(command.condition, state, io)
          if (command.until ? condition === 0 : condition !== 0) return status
          const outcome = await this.loopBody(command.body, state, io)
          status = state.status
          if (outcome === 'break') return status
        }
      }
    }
  }

  private async loopBody(body: Script, state: ShellState, io: Streams): Promise<'break' | 'continue' | undefined> {
    try {
      await this.script(body, state, io)
      return undefined
    } catch (error) {
      if (!(error instanceof LoopControl)) throw error
      if (error.levels > 1) {
        error.levels--
        // `continue 2` inside the inner loop is a `continue` of the outer one.
        throw error
      }
      return error.action
    }
  }

  /** Runs a builtin by its arguments; unknown names fail the way bash reports them, with status 127. */
  private async invoke(argv: string[], state: ShellState, io: Streams, variables: Record<string, string>): Promise<number> {
    const name = argv[0]!
    const handler = COMMANDS.get(name)
    if (!handler) {
      if (name.includes('/')) return this.runFile(name, argv.slice(1), state, io)
      const type = commandType(name)
      io.stderr.write(type === 'unavailable' ? `${name}: ${UNAVAILABLE_MESSAGE}\n` : `${name}: command not found\n`)
      return 127
    }
    let stdin: string | undefined
    const context: CommandContext = {
      name,
      args: argv.slice(1),
      // Read on demand: a command that does not read its input leaves it for the next one.
      get stdin() {
        return (stdin ??= io.input.readAll())
      },
      readLine: () => io.input.readLine(),
      stdout: io.stdout,
      stderr: io.stderr,
      fs: this.options.fs,
      cwd: state.cwd,
      env: variables,
      status: state.status,
      signal: this.options.signal,
      now: this.options.now,
      shell: {
        changeDirectory: (path) => {
          state.variables.OLDPWD = state.cwd
          state.cwd = path
          state.variables.PWD = path
        },
        setVariable: (key, value) => {
          state.variables[key] = value
        },
        unsetVariable: (key) => {
          delete state.variables[key]
        },
        exit: (code) => {
          throw new ShellExit(code)
        },
        loop: (action, levels) => {
          throw new LoopControl(action, levels)
        },
        run: (args, inner, options) => {
          const interpreter = options?.signal ? new Interpreter({ ...this.options, signal: options.signal }) : this
          return this.subshell(state, (sub) =>
            interpreter.invoke(args, sub, streamsOf(inner), { ...sub.variables, ...options?.variables }),
          )
        },
        runScript: (source, inner, positional) =>
          this.source(source, { ...state, positional: positional ?? [] }, streamsOf(inner)),
        commandType,
      },
    }
    try {
      return await handler(context)
    } catch (error) {
      if (error instanceof ShellExit || error instanceof ShellStopped || error instanceof LoopControl) throw error
      if (this.options.signal.aborted) throw new ShellStopped()
      io.stderr.write(`${name}: ${describeError(error)}\n`)
      return 1
    }
  }

  /** `./script.sh args`: the file's text runs as a script; there are no binaries to run. */
  private async runFile(name: string, args: string[], state: ShellState, io: Streams): Promise<number> {
    const path = resolvePath(state.cwd, name)
    const stat = await this.options.fs.stat(path)
    if (!stat) {
      io.stderr.write(`sh: ${name}: No such file or directory\n`)
      return 127
    }
    if (stat.type === 'directory') {
      io.stderr.write(`sh: ${name}: Is a directory\n`)
      return 126
    }
    const text = await this.options.fs.readText(path)
    return this.source(text, { ...state, positional: args }, io)
  }

  /** Applies redirections left to right (so `> f 2>&1` and `2>&1 > f` differ as in bash), runs, then writes files. */
  private async redirected(
    redirects: Redirect[],
    state: ShellState,
    io: Streams,
    run: (io: Streams) => Promise<number>,
  ): Promise<number> {
    if (redirects.length === 0) return run(io)
    const expander = this.expander(state, io)
    const descriptors = new Map<number, Sink>([
      [1, io.stdout],
      [2, io.stderr],
    ])
    const files: FileSink[] = []
    let input = io.input
    for (const redirect of redirects) {
      if (redirect.type === 'input') {
        input = new Input(await expandWord(redirect.body, expander))
      } else if (redirect.type === 'duplicate') {
        const target = descriptors.get(redirect.target)
        if (!target) throw new Error(`${redirect.target}: Bad file descriptor`)
        descriptors.set(redirect.fd, target)
      } else {
        const name = await expandWord(redirect.target, expander)
        if (redirect.operator === '<') {
          input = new Input(await this.readInput(name, state, io))
          continue
        }
        const sink = await this.openSink(name, redirect.operator === '>>', state, descriptors)
        if (sink instanceof FileSink) files.push(sink)
        if (redirect.both) descriptors.set(2, sink)
        descriptors.set(redirect.fd, sink)
      }
    }
    try {
      return await run({ input, stdout: descriptors.get(1)!, stderr: descriptors.get(2)! })
    } finally {
      for (const file of files) await file.flush(this.options.fs)
    }
  }

  private async readInput(name: string, state: ShellState, io: Streams): Promise<string> {
    if (name === '/dev/null') return ''
    if (name === '/dev/stdin') return io.input.readAll()
    return this.options.fs.readText(resolvePath(state.cwd, name)).catch((error: unknown) => {
      throw new Error(`${name}: ${describeError(error)}`)
    })
  }

  private async openSink(name: string, append: boolean, state: ShellState, descriptors: Map<number, Sink>): Promise<Sink> {
    if (name === '/dev/null') return devNull
    if (name === '/dev/stdout') return descriptors.get(1)!
    if (name === '/dev/stderr') return descriptors.get(2)!
    return FileSink.open(this.options.fs, resolvePath(state.cwd, name), append).catch((error: unknown) => {
      throw new Error(`${name}: ${describeError(error)}`)
    })
  }

  private expander(state: ShellState, io: Streams): Expander {
    return {
      variable: (name) => {
        if (name === '?') return String(state.status)
        if (name === '$') return '1'
        if (name === '#') return String(state.positional.length)
        if (name === '0') return 'sh'
        if (name === '@' || name === '*') return state.positional.join(' ')
        if (/^[1-9]$/.test(name)) return state.positional[Number(name) - 1]
        return state.variables[name]
      },
      substitute: async (script) => {
        const capture = new Capture()
        await this.subshell(state, (inner) => this.script(script, inner, { input: new Input(''), stdout: capture, stderr: io.stderr }))
        return capture.text
      },
      glob: (pattern) => expandGlob(pattern, state.cwd, this.options.fs),
      assign: (name, value) => {
        state.variables[name] = value
      },
    }
  }

  /** Stops between commands once aborted; now and then waits a macrotask so the abort and timeout timers can fire. */
  private async checkpoint(): Promise<void> {
    if (this.options.signal.aborted) throw new ShellStopped()
    if (++this.commandsRun % YIELD_EVERY === 0) await new Promise((resolve) => setTimeout(resolve, 0))
    if (this.options.signal.aborted) throw new ShellStopped()
  }
}

function streamsOf(io: CommandIO): Streams {
  return { input: new Input(io.stdin), stdout: io.stdout, stderr: io.stderr }
}
