/** `exit N`: unwinds to the shell (or subshell) that ran it. */
export class ShellExit extends Error {
  override name = 'ShellExit'
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

/** `break` / `continue`: unwinds to the enclosing loop. */
export class LoopControl extends Error {
  override name = 'LoopControl'
  constructor(
    readonly action: 'break' | 'continue',
    public levels: number,
  ) {
    super(action)
  }
}

/** The run was aborted or timed out: nothing more runs. */
export class ShellStopped extends Error {
  override name = 'ShellStopped'
}
