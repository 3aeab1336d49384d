import { runGit } from '../../git/index'
import type { CommandHandler } from './types'

/** `git`: the offline git runtime, run as a program over the shell's workspace and streams. */
export const git: CommandHandler = async (context) => {
  const { exitCode } = await runGit({
    argv: [context.name, ...context.args],
    cwd: context.cwd,
    env: context.env,
    stdin: context.stdin,
    files: context.fs,
    signal: context.signal,
    onStdout: (chunk) => context.stdout.write(chunk),
    onStderr: (chunk) => context.stderr.write(chunk),
  })
  return exitCode
}
