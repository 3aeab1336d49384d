import { matchesGlob } from '../../glob'
import { relativePath } from '../../path'
import type { Workspace } from '../../workspace'
import { parseOptions } from './options'
import { toRegExpSource, type RegexSyntax } from './regex'
import { describeError, resolveIn, splitLines, type CommandContext, type CommandHandler } from './types'

interface Source {
  name: string
  text: string
}

/** `grep [-nirlLvEFcowxhHqs] [-e PATTERN…] [-A/-B/-C N] [--include GLOB] PATTERN [path…]`; status 0 on a match, 1 none, 2 errors. */
export const grep: CommandHandler = async (context) => {
  const options = parseOptions(context.args, {
    flags: 'nirRlLvEFGcowxhHqsIPZa',
    // N, X and D stand for the long-only --include, --exclude and --exclude-dir.
    values: 'eABCmNXD',
    long: {
      'line-number': 'n',
      'ignore-case': 'i',
      recursive: 'r',
      'files-with-matches': 'l',
      'files-without-match': 'L',
      'invert-match': 'v',
      'extended-regexp': 'E',
      'fixed-strings': 'F',
      count: 'c',
      'only-matching': 'o',
      'word-regexp': 'w',
      'line-regexp': 'x',
      'no-filename': 'h',
      'with-filename': 'H',
      quiet: 'q',
      silent: 'q',
      'no-messages': 's',
      regexp: 'e',
      'after-context': 'A',
      'before-context': 'B',
      context: 'C',
      'max-count': 'm',
      include: 'N',
      exclude: 'X',
      'exclude-dir': 'D',
      color: 'K',
      colour: 'K',
    },
  })
  const has = (flag: string) => options.flags.has(flag)
  if (options.error) {
    context.stderr.write(`grep: ${options.error}\n`)
    return 2
  }
  const operands = [...options.operands]
  const patterns = options.values.get('e') ?? (operands.length > 0 ? [operands.shift()!] : undefined)
  if (!patterns) {
    context.stderr.write('Usage: grep [OPTION]... PATTERNS [FILE]...\n')
    return 2
  }
  const syntax: RegexSyntax = has('F') ? 'fixed' : has('E') || has('P') ? 'extended' : 'basic'
  let expression: RegExp
  try {
    const alternatives = patterns.flatMap((pattern) => pattern.split('\n')).map((pattern) => toRegExpSource(pattern, syntax))
    let source = alternatives.map((alternative) => `(?:${alternative})`).join('|')
    if (has('w')) source = `(?<![\\w])(?:${source})(?![\\w])`
    if (has('x')) source = `^(?:${source})$`
    expression = new RegExp(source, has('i') ? 'gi' : 'g')
  } catch (error) {
    context.stderr.write(`grep: ${describeError(error)}\n`)
    return 2
  }
  const recursive = has('r') || has('R')
  if (operands.length === 0) operands.push(recursive ? '.' : '-')
  const includes = options.values.get('N') ?? []
  const excludes = options.values.get('X') ?? []
  const excludedDirectories = options.values.get('D') ?? []
  const sources: Source[] = []
  let troubled = false
  const complain = (message: string) => {
    troubled = true
    if (!has('s')) context.stderr.write(`grep: ${message}\n`)
  }
  for (const operand of operands) {
    if (operand === '-') {
      sources.push({ name: '(standard input)', text: context.stdin })
      continue
    }
    const path = resolveIn(context, operand)
    const stat = await context.fs.stat(path)
    if (!stat) complain(`${operand}: No such file or directory`)
    else if (stat.type === 'file') sources.push({ name: operand, text: await readOrEmpty(context.fs, path) })
    else if (!recursive) complain(`${operand}: Is a directory`)
    else {
      for (const file of await filesUnder(context.fs, path, excludedDirectories)) {
        const relative = relativePath(path, file)
        const name = relative.split('/').at(-1)!
        if (includes.length > 0 && !includes.some((glob) => matchesGlob(glob, name))) continue
        if (excludes.some((glob) => matchesGlob(glob, name))) continue
        const display = operand === '.' && !options.operands.includes('.') ? relative : `${operand.replace(/\/+$/, '')}/${relative}`
        sources.push({ name: display, text: await readOrEmpty(context.fs, file) })
      }
    }
  }
  const withNames = has('H') || (!has('h') && (sources.length > 1 || recursive))
  const found = searchAll(sources, expression, options, withNames, context)
  if (has('q')) return found ? 0 : troubled ? 2 : 1
  return troubled ? 2 : found ? 0 : 1
}

function searchAll(
  sources: Source[],
  expression: RegExp,
  options: ReturnType<typeof parseOptions>,
  withNames: boolean,
  context: CommandContext,
): boolean {
  const has = (flag: string) => options.flags.has(flag)
  const number = (key: string) => Number(options.values.get(key)?.at(-1) ?? options.values.get('C')?.at(-1) ?? 0)
  const after = number('A')
  const before = number('B')
  const maxCount = Number(options.values.get('m')?.at(-1) ?? Infinity)
  let found = false
  for (const source of sources) {
    if (context.signal.aborted) break
    const binary = source.text.slice(0, 8192).includes('\0')
    const lines = splitLines(source.text)
    const matching: number[] = []
    for (const [index, line] of lines.entries()) {
      if (matching.length >= maxCount) break
      expression.lastIndex = 0
      if (expression.test(line) !== has('v')) matching.push(index)
    }
    if (matching.length > 0) found = true
    if (has('q')) {
      if (found) return true
      continue
    }
    if (has('l')) {
      if (matching.length > 0) context.stdout.write(`${source.name}\n`)
      continue
    }
    if (has('L')) {
      if (matching.length === 0) context.stdout.write(`${source.name}\n`)
      continue
    }
    if (has('c')) {
      context.stdout.write(withNames ? `${source.name}:${matching.length}\n` : `${matching.length}\n`)
      continue
    }
    if (matching.length === 0) continue
    if (binary && !has('a')) {
      context.stdout.write(`Binary file ${source.name} matches\n`)
      continue
    }
    context.stdout.write(formatMatches(source, lines, matching, expression, { after, before, withNames, has }))
  }
  return found
}

function formatMatches(
  source: Source,
  lines: string[],
  matching: number[],
  expression: RegExp,
  format: { after: number; before: number; withNames: boolean; has: (flag: string) => boolean },
): string {
  const prefix = (index: number, separator: string) =>
    (format.withNames ? `${source.name}${separator}` : '') + (format.has('n') ? `${index + 1}${separator}` : '')
  let output = ''
  if (format.has('o') && !format.has('v')) {
    for (const index of matching) {
      // matchAll starts from the expression's lastIndex, which the line tests leave behind.
      expression.lastIndex = 0
      for (const match of lines[index]!.matchAll(expression)) if (match[0]) output += `${prefix(index, ':')}${match[0]}\n`
    }
    return output
  }
  const matched = new Set(matching)
  const shown = new Set<number>()
  for (const index of matching) {
    for (let line = Math.max(0, index - format.before); line <= Math.min(lines.length - 1, index + format.after); line++) shown.add(line)
  }
  let previous = -2
  for (const index of [...shown].sort((a, b) => a - b)) {
    if ((format.before > 0 || format.after > 0) && previous >= 0 && index > previous + 1) output += '--\n'
    output += `${prefix(index, matched.has(index) ? ':' : '-')}${lines[index]}\n`
    previous = index
  }
  return output
}

async function readOrEmpty(fs: Workspace, path: string): Promise<string> {
  return fs.readText(path).catch(() => '')
}

/** Files under a directory in name order, skipping excluded directory names. */
async function filesUnder(fs: Workspace, directory: string, excluded: string[]): Promise<string[]> {
  const files: string[] = []
  for (const entry of await fs.list(directory)) {
    if (entry.type === 'file') files.push(entry.path)
    else if (!excluded.some((glob) => matchesGlob(glob, entry.name))) files.push(...(await filesUnder(fs, entry.path, excluded)))
  }
  return files
}
