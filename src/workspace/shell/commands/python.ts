import type { Program } from '../../runtime/program'
import type { CommandHandler } from './types'

/**
 * `python`, `python3`, `pip`, `pip3` in this shell until the just-bash shell lands: the runtime behind each is a
 * `Program`, loaded on first use so the Python host stays out of the worker's first bundle.
 */
function program(load: () => Promise<Program>): CommandHandler {
  return async (context) => {
    const run = await load()
    const { exitCode } = await run({
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
}

export const python = program(async () => (await import('../../python/index')).runPython)
export const pip = program(async () => (await import('../../python/index')).runPip)
