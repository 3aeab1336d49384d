import type { ClientApi, TerminalInfo } from '../../../core/protocol'
import { applyKey, emptyLine, keysOf, promptPath, type LineState } from './line-editor'
import type { TerminalScreen } from './xterm-view'

/** The worker calls a terminal makes (narrow, so tests can hand in a fake). */
export type TerminalApi = Pick<ClientApi, 'terminalOpen' | 'terminalRun' | 'terminalCancel' | 'terminalClose'>

export interface ShellSessionOptions {
  api: TerminalApi
  projectID: string
  screen: TerminalScreen
  /** Wraps the output callback so it can cross into the worker (Comlink's proxy in the app). */
  wrap: <T extends (...args: never[]) => unknown>(fn: T) => T
}

const BLUE = '\x1b[1;34m'
const RED = '\x1b[31m'
const GREEN = '\x1b[32m'
const RESET = '\x1b[0m'
/**
 * Before each prompt: CAN ends any control string the output left open (an unterminated OSC would swallow the
 * prompt and the echo of what is typed), and DECSTR (soft reset) undoes what the output set: hidden or concealed
 * text, another character set, a scroll region, origin mode, key modes. The user sees the line as they type it.
 */
const FRESH = '\x18\x1b[!p'

/**
 * One user terminal: the prompt line is edited here (`line-editor.ts`), each command line runs in the worker, and
 * its output is written as it streams. Keys typed while a command runs wait, and run after it, as typed ahead.
 */
export class ShellSession {
  private line: LineState = emptyLine()
  private info: TerminalInfo | undefined
  private cwd = ''
  private lastExit = 0
  private running = false
  private typedAhead: string[] = []
  /** Whether the cursor is at a line's start, so the prompt never lands behind output without a newline. */
  private atLineStart = true
  /** Set by Ctrl+C until the next prompt: what the stopped command still sends is not shown. */
  private stopped = false
  private closed = false

  constructor(private readonly options: ShellSessionOptions) {}

  async open(): Promise<void> {
    const { api, projectID, screen, wrap } = this.options
    screen.onData((data) => this.input(data))
    this.info = await api.terminalOpen({ projectID }, wrap((chunk: string) => this.output(chunk)))
    if (this.closed) return void api.terminalClose(this.info.terminalID)
    this.cwd = this.info.cwd
    this.prompt()
  }

  close(): void {
    this.closed = true
    if (this.info) void this.options.api.terminalClose(this.info.terminalID).catch(() => undefined)
  }

  private get promptWidth(): number {
    return promptPath(this.cwd, this.info!.home).length + 3
  }

  private prompt(): void {
    const { screen } = this.options
    this.stopped = false
    screen.write(FRESH)
    if (!this.atLineStart) screen.write('\r\n')
    screen.write(`${BLUE}${promptPath(this.cwd, this.info!.home)}${RESET} ${this.lastExit === 0 ? GREEN : RED}$${RESET} `)
    this.atLineStart = false
    const ahead = this.typedAhead.join('')
    this.typedAhead = []
    if (ahead) this.input(ahead)
  }

  /** Resolves once the chunk is on screen: the worker sends the next only then. */
  private output(chunk: string): Promise<void> | undefined {
    if (!chunk || this.stopped) return undefined
    this.atLineStart = chunk.endsWith('\n')
    return this.options.screen.output(chunk)
  }

  private input(data: string): void {
    if (!this.info) return
    const keys = keysOf(data)
    for (const [at, key] of keys.entries()) {
      if (this.running) {
        if (key === '\x03') this.interrupt()
        else if (key === '\x0c') this.options.screen.clear()
        else this.typedAhead.push(key)
        continue
      }
      const result = applyKey(this.line, key, { promptWidth: this.promptWidth, cols: this.options.screen.cols })
      this.line = result.state
      if (result.echo) this.options.screen.write(result.echo)
      const action = result.action
      if (!action) continue
      if (action.type === 'clear') this.options.screen.clear()
      if (action.type === 'interrupt') {
        this.lastExit = 130
        this.atLineStart = true
        this.prompt()
      }
      if (action.type === 'run') {
        this.atLineStart = true
        // The rest of a paste runs after this command, as a shell reads it.
        this.typedAhead.push(...keys.slice(at + 1))
        void this.run(action.command)
        return
      }
    }
  }

  private interrupt(): void {
    this.typedAhead = []
    this.stopped = true
    this.options.screen.discardOutput()
    this.options.screen.write('^C')
    this.atLineStart = false
    void this.options.api.terminalCancel(this.info!.terminalID)
  }

  private async run(command: string): Promise<void> {
    if (!command.trim()) return this.prompt()
    this.running = true
    try {
      const result = await this.options.api.terminalRun({ terminalID: this.info!.terminalID, command })
      this.cwd = result.cwd
      this.lastExit = result.exitCode
    } catch (error) {
      if (this.closed) return
      this.output(`\x1b[31m${error instanceof Error ? error.message : String(error)}${RESET}\n`)
      this.lastExit = 1
    } finally {
      this.running = false
    }
    if (!this.closed) this.prompt()
  }
}
