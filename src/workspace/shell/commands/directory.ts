import { parseOptions } from './options'
import { describeError, resolveIn, type CommandHandler } from './types'

export const pwd: CommandHandler = ({ cwd, stdout }) => {
  stdout.write(`${cwd}\n`)
  return 0
}

/** `cd [dir]`: no argument goes home, `-` goes back and prints where. */
export const cd: CommandHandler = async (context) => {
  const operands = context.args.filter((arg) => arg !== '-L' && arg !== '-P')
  if (operands.length > 1) {
    context.stderr.write('cd: too many arguments\n')
    return 1
  }
  const [operand] = operands
  const back = operand === '-'
  const target = back ? context.env.OLDPWD : (operand ?? context.env.HOME)
  if (target === undefined) {
    context.stderr.write(`cd: ${back ? 'OLDPWD' : 'HOME'} not set\n`)
    return 1
  }
  const path = resolveIn(context, target)
  const stat = await context.fs.stat(path)
  if (stat?.type !== 'directory') {
    context.stderr.write(`cd: ${target}: ${stat ? 'Not a directory' : 'No such file or directory'}\n`)
    return 1
  }
  context.shell.changeDirectory(path)
  if (back) context.stdout.write(`${path}\n`)
  return 0
}

/** `mkdir [-p] dir…` */
export const mkdir: CommandHandler = async (context) => {
  const options = parseOptions(context.args, { flags: 'pv', values: 'm', long: { parents: 'p', verbose: 'v', mode: 'm' } })
  if (options.error || options.operands.length === 0) {
    context.stderr.write(`mkdir: ${options.error ?? 'missing operand'}\n`)
    return 1
  }
  let status = 0
  for (const operand of options.operands) {
    const path = resolveIn(context, operand)
    const recursive = options.flags.has('p')
    const existing = await context.fs.stat(path)
    if (existing && !(recursive && existing.type === 'directory')) {
      context.stderr.write(`mkdir: cannot create directory '${operand}': File exists\n`)
      status = 1
      continue
    }
    await context.fs.mkdir(path, { recursive }).then(
      () => options.flags.has('v') && context.stdout.write(`mkdir: created directory '${operand}'\n`),
      (error: unknown) => {
        context.stderr.write(`mkdir: cannot create directory '${operand}': ${describeError(error)}\n`)
        status = 1
      },
    )
  }
  return status
}

/** `rmdir dir…`: only empty directories. */
export const rmdir: CommandHandler = async (context) => {
  const options = parseOptions(context.args, { flags: 'pv', long: { parents: 'p', verbose: 'v' } })
  if (options.error || options.operands.length === 0) {
    context.stderr.write(`rmdir: ${options.error ?? 'missing operand'}\n`)
    return 1
  }
  let status = 0
  for (const operand of options.operands) {
    const path = resolveIn(context, operand)
    const stat = await context.fs.stat(path)
    const problem = !stat
      ? 'No such file or directory'
      : stat.type !== 'directory'
        ? 'Not a directory'
        : (await context.fs.list(path)).length > 0
          ? 'Directory not empty'
          : undefined
    if (problem) {
      context.stderr.write(`rmdir: failed to remove '${operand}': ${problem}\n`)
      status = 1
      continue
    }
    await context.fs.remove(path)
  }
  return status
}
