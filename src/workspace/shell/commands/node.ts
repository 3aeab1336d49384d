import type { CommandHandler } from './types'

/** `node`: the offline JavaScript runtime (QuickJS in its own worker), loaded on first use. */
export const node: CommandHandler = async (context) => {
  const { runNode } = await import('../../javascript/index')
  const { exitCode } = await runNode({
    argv: [context.name, ...context.args],
    cwd: context.cwd,
    env: context.env,
    stdin: context.stdin,
    files: context.fs,
    signal: context.signal,
    onStdout: (text) => context.stdout.write(text),
    onStderr: (text) => context.stderr.write(text),
  })
  return exitCode
}
