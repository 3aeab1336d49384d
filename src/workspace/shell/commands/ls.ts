import type { FileStat } from '../../workspace'
import { parseOptions } from './options'
import { resolveIn, type CommandContext, type CommandHandler } from './types'

interface Listing {
  all: boolean
  almostAll: boolean
  long: boolean
  human: boolean
  classify: boolean
  byTime: boolean
  bySize: boolean
  reverse: boolean
}

/**
 * `ls [-laAR1thSrdF] [path…]`, one name per line as ls prints when its output is not a terminal (tools never see
 * a terminal), which is also the easiest for a model to read.
 */
export const ls: CommandHandler = async (context) => {
  const options = parseOptions(context.args, {
    flags: 'laAR1thSrdFG',
    long: { all: 'a', 'almost-all': 'A', recursive: 'R', 'human-readable': 'h', classify: 'F', directory: 'd', reverse: 'r' },
  })
  if (options.error) {
    context.stderr.write(`ls: ${options.error}\n`)
    return 2
  }
  const has = (flag: string) => options.flags.has(flag)
  const listing: Listing = {
    all: has('a'),
    almostAll: has('A'),
    long: has('l'),
    human: has('h'),
    classify: has('F'),
    byTime: has('t'),
    bySize: has('S'),
    reverse: has('r'),
  }
  const operands = options.operands.length > 0 ? options.operands : ['.']
  let status = 0
  const files: { label: string; stat: FileStat }[] = []
  const directories: { label: string; stat: FileStat }[] = []
  for (const operand of operands) {
    const stat = await context.fs.stat(resolveIn(context, operand))
    if (!stat) {
      context.stderr.write(`ls: cannot access '${operand}': No such file or directory\n`)
      status = 2
    } else if (stat.type === 'directory' && !has('d')) directories.push({ label: operand, stat })
    else files.push({ label: operand, stat })
  }
  const blocks: string[] = []
  if (files.length > 0) {
    blocks.push(render(sortStats(files.map((file) => ({ ...file.stat, name: file.label })), listing), listing, context, false))
  }
  const headers = operands.length > 1 || has('R')
  for (const directory of sortStats(directories.map((item) => ({ ...item.stat, name: item.label })), listing)) {
    await listDirectory(context, directory.name, directory.path, listing, headers, has('R'), blocks)
  }
  context.stdout.write(blocks.join('\n'))
  return status
}

async function listDirectory(
  context: CommandContext,
  label: string,
  path: string,
  listing: Listing,
  headers: boolean,
  recursive: boolean,
  blocks: string[],
): Promise<void> {
  const entries = (await context.fs.list(path)).filter(
    (entry) => listing.all || listing.almostAll || !entry.name.startsWith('.'),
  )
  const shown = sortStats(entries, listing)
  if (listing.all) {
    const self = await context.fs.stat(path)
    const parent = await context.fs.stat(resolveIn({ cwd: path }, '..'))
    shown.unshift(...[self && { ...self, name: '.' }, parent && { ...parent, name: '..' }].filter((item) => item !== undefined))
  }
  blocks.push((headers ? `${label}:\n` : '') + render(shown, listing, context, true))
  if (!recursive) return
  for (const entry of sortStats(entries, listing)) {
    if (entry.type !== 'directory') continue
    const child = label.endsWith('/') ? `${label}${entry.name}` : `${label}/${entry.name}`
    await listDirectory(context, child, entry.path, listing, true, true, blocks)
  }
}

function sortStats(stats: FileStat[], listing: Listing): FileStat[] {
  const sorted = [...stats].sort((a, b) => {
    if (listing.byTime && a.modified !== b.modified) return b.modified - a.modified
    if (listing.bySize && a.size !== b.size) return b.size - a.size
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  })
  return listing.reverse ? sorted.reverse() : sorted
}

/** One name per line, or `-l` lines; a directory's listing starts with its `total`, as ls prints it. */
function render(stats: FileStat[], listing: Listing, context: CommandContext, total: boolean): string {
  const name = (stat: FileStat) => stat.name + (listing.classify && stat.type === 'directory' ? '/' : '')
  if (!listing.long) return stats.map((stat) => `${name(stat)}\n`).join('')
  const sizes = stats.map((stat) => formatSize(stat.type === 'directory' ? 4096 : stat.size, listing.human))
  const width = Math.max(0, ...sizes.map((size) => size.length))
  const owner = context.env.USER ?? 'user'
  const blocks = stats.reduce((sum, stat) => sum + Math.ceil((stat.type === 'directory' ? 4096 : stat.size) / 4096) * 4, 0)
  const lines = stats.map((stat, index) => {
    const mode = stat.type === 'directory' ? 'drwxr-xr-x' : '-rw-r--r--'
    return `${mode} 1 ${owner} ${owner} ${sizes[index]!.padStart(width)} ${formatTime(stat.modified, context.now())} ${name(stat)}\n`
  })
  return (total ? `total ${blocks}\n` : '') + lines.join('')
}

function formatSize(size: number, human: boolean): string {
  if (!human || size < 1024) return String(size)
  const units = ['K', 'M', 'G', 'T']
  let value = size
  let unit = ''
  for (const next of units) {
    if (value < 1024) break
    value /= 1024
    unit = next
  }
  return `${value < 10 ? Math.ceil(value * 10) / 10 : Math.ceil(value)}${unit}`
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** `Mar  4 14:05` for the last six months, `Mar  4  2023` before, in UTC. */
function formatTime(modified: number, now: number): string {
  const date = new Date(modified)
  const day = `${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2)}`
  const recent = now - modified < 182 * 24 * 3600 * 1000 && modified <= now
  if (!recent) return `${day}  ${date.getUTCFullYear()}`
  return `${day} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`
}
