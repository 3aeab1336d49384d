import { parseOptions } from './options'
import { readText, type CommandHandler, splitLines } from './types'

/** `uniq [-cdui] [input]`: adjacent duplicates only, as always. */
export const uniq: CommandHandler = async (context) => {
  const options = parseOptions(context.args, { flags: 'cdui', long: { count: 'c', repeated: 'd', unique: 'u', 'ignore-case': 'i' } })
  if (options.error) {
    context.stderr.write(`uniq: ${options.error}\n`)
    return 1
  }
  const [operand] = options.operands
  const text = operand === undefined || operand === '-' ? context.stdin : await readText(context, operand)
  if (text === undefined) return 1
  const same = (a: string, b: string) => (options.flags.has('i') ? a.toLowerCase() === b.toLowerCase() : a === b)
  const groups: { line: string; count: number }[] = []
  for (const line of splitLines(text)) {
    const last = groups.at(-1)
    if (last && same(last.line, line)) last.count++
    else groups.push({ line, count: 1 })
  }
  const output = groups
    .filter((group) => (!options.flags.has('d') || group.count > 1) && (!options.flags.has('u') || group.count === 1))
    .map((group) => (options.flags.has('c') ? `${String(group.count).padStart(7)} ${group.line}\n` : `${group.line}\n`))
    .join('')
  context.stdout.write(output)
  return 0
}
