/** A terminal as opened: where it starts, and the home its prompt shortens to `~`. */
export interface TerminalInfo {
  terminalID: string
  cwd: string
  home: string
}

export interface TerminalRunResult {
  exitCode: number
  /** Where the next command runs (after a `cd`). */
  cwd: string
  aborted: boolean
}

/** The user's own shells over the project's workspace (issue 17), each keeping its cwd and variables. */
export interface TerminalApi {
  /**
   * Opens a terminal in the project's root. Every command's output reaches `onOutput` (a callback, so it goes to
   * this tab only, over its own port, never the event channel every tab hears).
   */
  terminalOpen(input: { projectID: string }, onOutput: (chunk: string) => void): TerminalInfo
  /** Runs one command line; resolves when it ended and all its output has reached `onOutput`. */
  terminalRun(input: { terminalID: string; command: string }): TerminalRunResult
  /** Stops the command running in the terminal (Ctrl+C); nothing when none runs. */
  terminalCancel(terminalID: string): void
  /** Stops what runs and forgets the terminal's state. */
  terminalClose(terminalID: string): void
}
