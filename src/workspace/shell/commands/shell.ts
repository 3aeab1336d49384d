import { describeError, resolveIn, type CommandHandler } from './types'

/** `sh -c 'cmd' [args]`, `sh file [args]`, or a script on stdin; `bash` is the same shell here. */
export const sh: CommandHandler = async (context) => {
  const args = context.args.filter((arg) => !/^-[eux]+$/.test(arg) && arg !== '-l' && arg !== '--login')
  if (args[0] === '-c') {
    if (args[1] === undefined) {
      context.stderr.write(`${context.name}: -c: option requires an argument\n`)
      return 2
    }
    return context.shell.runScript(args[1], { ...context, stdin: context.stdin }, args.slice(3))
  }
  if (args.length === 0) return context.shell.runScript(context.stdin, { ...context, stdin: '' })
  return runFile(context, args[0]!, args.slice(1))
}

/** `source file` / `. file`: runs in this shell here too, but its `cd` and variables stay inside (a simplification). */
export const source: CommandHandler = async (context) => {
  const [file, ...rest] = context.args
  if (file === undefined) {
    context.stderr.write(`${context.name}: filename argument required\n`)
    return 2
  }
  return runFile(context, file, rest)
}

async function runFile(context: Parameters<CommandHandler>[0], file: string, positional: string[]): Promise<number> {
  const text = await context.fs.readText(resolveIn(context, file)).catch((error: unknown) => {
    context.stderr.write(`${context.name}: ${file}: ${describeError(error)}\n`)
    return undefined
  })
  if (text === undefined) return 127
  return context.shell.runScript(text, context, positional)
}
