import { parseOptions } from './options'
import { describeError, resolveIn, type CommandHandler } from './types'

/** `tee [-a] file…`: stdin to stdout and to each file. */
export const tee: CommandHandler = async (context) => {
  const options = parseOptions(context.args, { flags: 'ai', long: { append: 'a' } })
  if (options.error) {
    context.stderr.write(`tee: ${options.error}\n`)
    return 1
  }
  context.stdout.write(context.stdin)
  let status = 0
  for (const operand of options.operands) {
    const path = resolveIn(context, operand)
    try {
      const before = options.flags.has('a') && (await context.fs.stat(path)) ? await context.fs.readText(path) : ''
      await context.fs.writeFile(path, before + context.stdin)
    } catch (error) {
      context.stderr.write(`tee: ${operand}: ${describeError(error)}\n`)
      status = 1
    }
  }
  return status
}
