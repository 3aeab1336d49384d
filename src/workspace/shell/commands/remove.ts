import { isInside } from '../../path'
import { parseOptions } from './options'
import { resolveIn, type CommandHandler } from './types'

/** `rm [-rf] path…` */
export const rm: CommandHandler = async (context) => {
  const options = parseOptions(context.args, {
    flags: 'rRfidv',
    long: { recursive: 'r', force: 'f', dir: 'd', verbose: 'v', interactive: 'i' },
  })
  if (options.error) {
    context.stderr.write(`rm: ${options.error}\n`)
    return 1
  }
  const force = options.flags.has('f')
  const recursive = options.flags.has('r') || options.flags.has('R')
  if (options.operands.length === 0) {
    if (force) return 0
    context.stderr.write('rm: missing operand\n')
    return 1
  }
  let status = 0
  for (const operand of options.operands) {
    const path = resolveIn(context, operand)
    if (isInside(path, context.fs.root) || isInside(path, context.cwd)) {
      context.stderr.write(`rm: refusing to remove '${operand}': it contains the workspace or the current directory\n`)
      status = 1
      continue
    }
    const stat = await context.fs.stat(path)
    if (!stat) {
      if (!force) {
        context.stderr.write(`rm: cannot remove '${operand}': No such file or directory\n`)
        status = 1
      }
      continue
    }
    if (stat.type === 'directory' && !recursive) {
      const empty = options.flags.has('d') && (await context.fs.list(path)).length === 0
      if (!empty) {
        context.stderr.write(`rm: cannot remove '${operand}': Is a directory\n`)
        status = 1
        continue
      }
    }
    await context.fs.remove(path, { recursive })
    if (options.flags.has('v')) context.stdout.write(`removed '${operand}'\n`)
  }
  return status
}
