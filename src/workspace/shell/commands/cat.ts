import { parseOptions } from './options'
import { readInputs, splitLines, type CommandHandler } from './types'

/** `cat [-n] [file…]`: each file is written as soon as it is read. */
export const cat: CommandHandler = async (context) => {
  const options = parseOptions(context.args, { flags: 'nAEsTuv', long: { number: 'n' } })
  if (options.error) {
    context.stderr.write(`cat: ${options.error}\n`)
    return 1
  }
  let failed = false
  let line = 1
  for (const operand of options.operands.length > 0 ? options.operands : ['-']) {
    const { inputs, failed: missing } = await readInputs(context, [operand])
    failed ||= missing
    for (const input of inputs) {
      if (!options.flags.has('n')) {
        context.stdout.write(input.text)
        continue
      }
      const lines = splitLines(input.text)
      const numbered = lines.map((text) => `${String(line++).padStart(6)}\t${text}`).join('\n')
      context.stdout.write(numbered + (input.text.endsWith('\n') ? '\n' : ''))
    }
  }
  return failed ? 1 : 0
}
