import { dirname } from '../../path'
import { parseOptions } from './options'
import { resolveIn, type CommandHandler } from './types'

/** `touch file…`: creates empty files; an existing file is rewritten as is, which updates its time. */
export const touch: CommandHandler = async (context) => {
  const options = parseOptions(context.args, { flags: 'cam', values: 'dtr', long: { 'no-create': 'c', date: 'd', reference: 'r' } })
  if (options.error || options.operands.length === 0) {
    context.stderr.write(`touch: ${options.error ?? 'missing file operand'}\n`)
    return 1
  }
  let status = 0
  for (const operand of options.operands) {
    const path = resolveIn(context, operand)
    const stat = await context.fs.stat(path)
    if (stat?.type === 'directory') continue
    if (stat) {
      await context.fs.writeFile(path, await context.fs.readFile(path))
      continue
    }
    if (options.flags.has('c')) continue
    const parent = await context.fs.stat(dirname(path))
    if (parent?.type !== 'directory') {
      context.stderr.write(`touch: cannot touch '${operand}': ${parent ? 'Not a directory' : 'No such file or directory'}\n`)
      status = 1
      continue
    }
    await context.fs.writeFile(path, '')
  }
  return status
}
