import { basename, isInside } from '../../path'
import type { Workspace } from '../../workspace'
import { parseOptions } from './options'
import { describeError, resolveIn, type CommandContext, type CommandHandler } from './types'

/** `cp [-r] source… dest` */
export const cp: CommandHandler = (context) => transfer(context, 'copy')

/** `mv source… dest`: a directory moves as a copy of its tree followed by a removal. */
export const mv: CommandHandler = (context) => transfer(context, 'move')

async function transfer(context: CommandContext, mode: 'copy' | 'move'): Promise<number> {
  const name = context.name
  const options = parseOptions(context.args, {
    flags: mode === 'copy' ? 'rRafnpvTu' : 'fnvTiu',
    long: { recursive: 'r', archive: 'a', force: 'f', 'no-clobber': 'n', verbose: 'v', 'no-target-directory': 'T' },
  })
  if (options.error) {
    context.stderr.write(`${name}: ${options.error}\n`)
    return 1
  }
  const operands = options.operands
  if (operands.length < 2) {
    const problem = operands.length === 0 ? 'missing file operand' : `missing destination file operand after '${operands[0]}'`
    context.stderr.write(`${name}: ${problem}\n`)
    return 1
  }
  const destinationOperand = operands.at(-1)!
  const destination = resolveIn(context, destinationOperand)
  const destinationStat = await context.fs.stat(destination)
  const intoDirectory = destinationStat?.type === 'directory' && !options.flags.has('T')
  const sources = operands.slice(0, -1)
  if (sources.length > 1 && !intoDirectory) {
    context.stderr.write(`${name}: target '${destinationOperand}' is not a directory\n`)
    return 1
  }
  const recursive = mode === 'move' || ['r', 'R', 'a'].some((flag) => options.flags.has(flag))
  let status = 0
  for (const source of sources) {
    const from = resolveIn(context, source)
    const stat = await context.fs.stat(from)
    if (!stat) {
      context.stderr.write(`${name}: cannot stat '${source}': No such file or directory\n`)
      status = 1
      continue
    }
    if (stat.type === 'directory' && !recursive) {
      context.stderr.write(`${name}: -r not specified; omitting directory '${source}'\n`)
      status = 1
      continue
    }
    const to = intoDirectory ? `${destination}/${basename(from)}`.replace(/^\/\//, '/') : destination
    if (from === to) {
      context.stderr.write(`${name}: '${source}' and '${destinationOperand}' are the same file\n`)
      status = 1
      continue
    }
    if (stat.type === 'directory' && isInside(from, to)) {
      context.stderr.write(`${name}: cannot ${mode} '${source}' to a subdirectory of itself, '${destinationOperand}'\n`)
      status = 1
      continue
    }
    const existing = await context.fs.stat(to)
    if (existing && options.flags.has('n')) continue
    if (existing?.type === 'directory' && stat.type === 'file') {
      context.stderr.write(`${name}: cannot overwrite directory '${destinationOperand}' with non-directory\n`)
      status = 1
      continue
    }
    if (existing?.type === 'file' && stat.type === 'directory') {
      context.stderr.write(`${name}: cannot overwrite non-directory '${destinationOperand}' with directory '${source}'\n`)
      status = 1
      continue
    }
    try {
      if (mode === 'move' && existing?.type === 'directory') await context.fs.remove(to, { recursive: true })
      await copyTree(context.fs, from, to)
      if (mode === 'move') await context.fs.remove(from, { recursive: true })
      if (options.flags.has('v')) context.stdout.write(`'${source}' -> '${to}'\n`)
    } catch (error) {
      context.stderr.write(`${name}: cannot ${mode} '${source}': ${describeError(error)}\n`)
      status = 1
    }
  }
  return status
}

/** Copies a file, or a directory with everything in it, merging into an existing directory as `cp -r` does. */
async function copyTree(fs: Workspace, from: string, to: string): Promise<void> {
  const stat = await fs.stat(from)
  if (stat?.type === 'file') return fs.writeFile(to, await fs.readFile(from))
  await fs.mkdir(to, { recursive: true })
  for (const entry of await fs.list(from)) await copyTree(fs, entry.path, `${to}/${entry.name}`)
}
