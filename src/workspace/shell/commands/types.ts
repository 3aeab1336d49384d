import { resolvePath } from '../../path'
import { WorkspaceError, type Workspace } from '../../workspace'

/** Where a command writes: the terminal, a pipe, a file, or nowhere. */
export interface Sink {
  write(text: string): void
}

export interface CommandIO {
  stdin: string
  stdout: Sink
  stderr: Sink
}

/**
 * A command's standard input, shared by the commands of a compound command: what one command reads, the next
 * does not see, so `while read line; do …; done < file` walks the file line by line.
 */
export class Input {
  private offset = 0

  constructor(private readonly text: string) {}

  readAll(): string {
    const rest = this.text.slice(this.offset)
    this.offset = this.text.length
    return rest
  }

  /** The next line without its newline; undefined at the end. */
  readLine(): string | undefined {
    if (this.offset >= this.text.length) return undefined
    const end = this.text.indexOf('\n', this.offset)
    const line = this.text.slice(this.offset, end === -1 ? undefined : end)
    this.offset = end === -1 ? this.text.length : end + 1
    return line
  }
}

/** What the shell lets a command change beyond its own output. */
export interface ShellControl {
  /** `cd`: an absolute, existing directory. */
  changeDirectory(path: string): void
  setVariable(name: string, value: string): void
  unsetVariable(name: string): void
  /** Ends the shell (or the subshell) with this status; never returns. */
  exit(code: number): never
  /** Leaves (`break`) or restarts (`continue`) the innermost `levels` loops; never returns. */
  loop(action: 'break' | 'continue', levels: number): never
  /**
   * Runs a command from its arguments, as `xargs`, `find -exec` and `env CMD` do. A `signal` of its own (for
   * `timeout`) stops that command when it aborts, as the shell's signal stops everything.
   */
  run(argv: string[], io: CommandIO, options?: { variables?: Record<string, string>; signal?: AbortSignal }): Promise<number>
  /** Runs a command line in a subshell, as `sh -c` does. */
  runScript(source: string, io: CommandIO, positional?: string[]): Promise<number>
  /** `builtin` for a command this shell has, `unavailable` for one that needs WebContainer. */
  commandType(name: string): 'builtin' | 'unavailable' | undefined
}

export interface CommandContext extends CommandIO {
  /** The name the command was called by (`[` and `test` share a handler). */
  name: string
  /** One line of stdin (for `read`); `stdin` is the rest of it, read whole. */
  readLine(): string | undefined
  args: string[]
  fs: Workspace
  cwd: string
  /** Every shell variable the command sees. */
  env: Record<string, string>
  /** `$?` when the command started. */
  status: number
  signal: AbortSignal
  now: () => number
  shell: ShellControl
}

/** A builtin: reads stdin and files, writes to stdout and stderr, and returns its exit status. */
export type CommandHandler = (context: CommandContext) => Promise<number> | number

export function resolveIn(context: Pick<CommandContext, 'cwd'>, path: string): string {
  return resolvePath(context.cwd, path)
}

/** The reason part of a message like `cat: x: No such file or directory`, as the C library words it. */
export function describeError(error: unknown): string {
  if (error instanceof WorkspaceError) {
    switch (error.code) {
      case 'not-found':
        return 'No such file or directory'
      case 'is-directory':
        return 'Is a directory'
      case 'not-directory':
        return 'Not a directory'
      case 'exists':
        return 'File exists'
      case 'not-empty':
        return 'Directory not empty'
      default:
        return error.message
    }
  }
  return error instanceof Error ? error.message : String(error)
}

/** Splits text into lines without their newlines; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}

/** Lines back to text, each ending with a newline. */
export function joinLines(lines: string[]): string {
  return lines.map((line) => `${line}\n`).join('')
}

/**
 * The text of each operand (`-` or none: stdin), with errors reported the way coreutils does. `failed` is true
 * when some operand could not be read.
 */
export async function readInputs(
  context: CommandContext,
  operands: string[],
): Promise<{ inputs: { name: string; text: string }[]; failed: boolean }> {
  const inputs: { name: string; text: string }[] = []
  let failed = false
  for (const operand of operands.length > 0 ? operands : ['-']) {
    if (operand === '-') {
      inputs.push({ name: '(standard input)', text: context.stdin })
      continue
    }
    const text = await readText(context, operand)
    if (text === undefined) failed = true
    else inputs.push({ name: operand, text })
  }
  return { inputs, failed }
}

/** A file's text, or undefined after printing `name: operand: reason`. */
export async function readText(context: CommandContext, operand: string): Promise<string | undefined> {
  if (operand === '/dev/null') return ''
  if (operand === '/dev/stdin') return context.stdin
  return context.fs.readText(resolveIn(context, operand)).catch((error: unknown) => {
    context.stderr.write(`${context.name}: ${operand}: ${describeError(error)}\n`)
    return undefined
  })
}
