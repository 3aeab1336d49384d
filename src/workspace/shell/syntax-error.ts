/** A command line the shell cannot parse; the runner prints `sh: <message>` and exits with 2, as bash does. */
export class ShellSyntaxError extends Error {
  override name = 'ShellSyntaxError'
}
