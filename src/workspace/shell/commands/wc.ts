import { parseOptions } from './options'
import { readInputs, type CommandHandler } from './types'

/** `wc [-lwcm] [file…]`, with a total line for several files. */
export const wc: CommandHandler = async (context) => {
  const options = parseOptions(context.args, { flags: 'lwcmL', long: { lines: 'l', words: 'w', bytes: 'c', chars: 'm' } })
  if (options.error) {
    context.stderr.write(`wc: ${options.error}\n`)
    return 1
  }
  const chosen = ['l', 'w', 'm', 'c'].filter((flag) => options.flags.has(flag))
  const columns = chosen.length > 0 ? chosen : ['l', 'w', 'c']
  const { inputs, failed } = await readInputs(context, options.operands)
  const rows = inputs.map((input) => ({
    name: options.operands.length > 0 ? input.name : '',
    counts: columns.map((column) => count(input.text, column)),
  }))
  if (rows.length > 1) rows.push({ name: 'total', counts: columns.map((_, index) => rows.reduce((sum, row) => sum + row.counts[index]!, 0)) })
  // As GNU wc pads: one number alone not at all, stdin to 7, files to the digits of their total size.
  const single = columns.length === 1 && rows.length === 1
  const bytes = inputs.reduce((sum, input) => sum + count(input.text, 'c'), 0)
  const width = single ? 0 : options.operands.length === 0 ? 7 : String(bytes).length
  for (const row of rows) {
    const numbers = row.counts.map((value) => String(value).padStart(width)).join(' ')
    context.stdout.write(row.name ? `${numbers} ${row.name}\n` : `${numbers}\n`)
  }
  return failed ? 1 : 0
}

function count(text: string, column: string): number {
  if (column === 'l') return text.split('\n').length - 1
  if (column === 'w') return text.split(/\s+/).filter(Boolean).length
  if (column === 'm') return [...text].length
  return new TextEncoder().encode(text).length
}
