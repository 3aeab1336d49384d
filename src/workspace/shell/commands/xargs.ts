import { parseOptions } from './options'
import type { CommandHandler } from './types'

/** `xargs [-n N] [-I STR] [-0] [-d DELIM] [-r] [command [args]]`: runs the command over words read from stdin. */
export const xargs: CommandHandler = async (context) => {
  // Options end at the first operand: the rest is the command and its own options.
  const split = context.args.findIndex((arg, index) => !arg.startsWith('-') && !/^-[nIdLsP]$/.test(context.args[index - 1] ?? ''))
  const own = split === -1 ? context.args : context.args.slice(0, split)
  const options = parseOptions(own, {
    flags: '0rtx',
    values: 'nIdLsP',
    long: { null: '0', 'no-run-if-empty': 'r', 'max-args': 'n', replace: 'I', delimiter: 'd', verbose: 't' },
  })
  if (options.error) {
    context.stderr.write(`xargs: ${options.error}\n`)
    return 1
  }
  const command = split === -1 ? ['echo'] : context.args.slice(split)
  const replace = options.values.get('I')?.at(-1)
  const delimiter = options.flags.has('0') ? '\0' : options.values.get('d')?.at(-1)
  const items =
    replace !== undefined
      ? context.stdin.split('\n').filter((line) => line.trim() !== '')
      : delimiter !== undefined
        ? context.stdin.split(delimiter).filter((item, index, all) => item !== '' || index < all.length - 1)
        : words(context.stdin)
  if (items.length === 0 && (options.flags.has('r') || replace !== undefined)) return 0
  const size = replace !== undefined ? 1 : Number(options.values.get('n')?.at(-1) ?? options.values.get('L')?.at(-1) ?? Infinity)
  const batches: string[][] = []
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size))
  if (batches.length === 0) batches.push([])
  let status = 0
  for (const batch of batches) {
    if (context.signal.aborted) break
    const argv = replace !== undefined ? command.map((arg) => arg.replaceAll(replace, batch[0]!)) : [...command, ...batch]
    if (options.flags.has('t')) context.stderr.write(`${argv.join(' ')}\n`)
    const result = await context.shell.run(argv, { stdin: '', stdout: context.stdout, stderr: context.stderr })
    if (result === 127 || result === 126) return result
    if (result !== 0) status = 123
  }
  return status
}

/** Blank-separated words; quotes and backslashes group, as xargs reads them. */
function words(text: string): string[] {
  const result: string[] = []
  let current: string | undefined
  let quote: string | undefined
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (quote) {
      if (char === quote) quote = undefined
      else current = (current ?? '') + char
    } else if (char === '"' || char === "'") {
      quote = char
      current ??= ''
    } else if (char === '\\' && index + 1 < text.length) current = (current ?? '') + text[++index]
    else if (/\s/.test(char)) {
      if (current !== undefined) result.push(current)
      current = undefined
    } else current = (current ?? '') + char
  }
  if (current !== undefined) result.push(current)
  return result
}
