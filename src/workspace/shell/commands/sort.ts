import { parseOptions } from './options'
import { joinLines, readInputs, resolveIn, splitLines, type CommandHandler } from './types'

/** `sort [-rnufh] [-k N[,M]] [-t SEP] [file…]` */
export const sort: CommandHandler = async (context) => {
  const options = parseOptions(context.args, {
    flags: 'rnufhVbs',
    values: 'kto',
    long: { reverse: 'r', 'numeric-sort': 'n', unique: 'u', 'ignore-case': 'f', key: 'k', 'field-separator': 't' },
  })
  if (options.error) {
    context.stderr.write(`sort: ${options.error}\n`)
    return 2
  }
  const { inputs, failed } = await readInputs(context, options.operands)
  if (failed) return 2
  const lines = inputs.flatMap((input) => splitLines(input.text))
  const separator = options.values.get('t')?.at(-1)
  const key = parseKey(options.values.get('k')?.at(-1))
  const numeric = options.flags.has('n') || options.flags.has('h') || key?.numeric === true
  const fold = options.flags.has('f')
  const keyOf = (line: string) => {
    let value = key ? fieldRange(line, key.start, key.end, separator) : line
    if (options.flags.has('b')) value = value.trimStart()
    return fold ? value.toLowerCase() : value
  }
  const compare = (a: string, b: string) => {
    const left = keyOf(a)
    const right = keyOf(b)
    const primary = numeric ? numberOf(left, options.flags.has('h')) - numberOf(right, options.flags.has('h')) : codeOrder(left, right)
    return primary
  }
  // The whole line breaks ties, as GNU sort's last-resort comparison does.
  const sorted = [...lines].sort((a, b) => compare(a, b) || (options.flags.has('s') ? 0 : codeOrder(a, b)))
  if (options.flags.has('r')) sorted.reverse()
  const result = options.flags.has('u') ? sorted.filter((line, index) => index === 0 || compare(sorted[index - 1]!, line) !== 0) : sorted
  const output = joinLines(result)
  const target = options.values.get('o')?.at(-1)
  if (target) await context.fs.writeFile(resolveIn(context, target), output)
  else context.stdout.write(output)
  return 0
}

function codeOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const SUFFIXES: Record<string, number> = { K: 1e3, M: 1e6, G: 1e9, T: 1e12, k: 1e3 }

function numberOf(text: string, human: boolean): number {
  const match = /^\s*(-?\d*\.?\d+)([KMGTk]?)/.exec(text)
  if (!match) return 0
  return Number(match[1]) * (human ? (SUFFIXES[match[2]!] ?? 1) : 1)
}

function parseKey(spec: string | undefined): { start: number; end: number | undefined; numeric: boolean } | undefined {
  if (!spec) return undefined
  const match = /^(\d+)(?:\.\d+)?([a-zA-Z]*)(?:,(\d+)(?:\.\d+)?[a-zA-Z]*)?$/.exec(spec)
  if (!match) return undefined
  return { start: Number(match[1]), end: match[3] ? Number(match[3]) : undefined, numeric: match[2]!.includes('n') }
}

/** Fields `start`…`end` (1-based); without a separator, fields are runs of non-blanks with their leading blanks. */
function fieldRange(line: string, start: number, end: number | undefined, separator: string | undefined): string {
  const fields = separator === undefined ? (line.match(/\s*\S+/g) ?? []) : line.split(separator)
  const selected = fields.slice(start - 1, end ?? fields.length)
  return selected.join(separator ?? '')
}
