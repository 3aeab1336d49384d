import { parseOptions } from './options'
import { readInputs, type CommandContext, type CommandHandler } from './types'

/** `head [-n N | -N] [-c N] [file…]`; a negative N keeps all but the last N lines. */
export const head: CommandHandler = (context) => slice(context, 'head')

/** `tail [-n N | -n +N | -N] [-c N] [file…]`; `+N` starts at line N. `-f` is accepted and ignored. */
export const tail: CommandHandler = (context) => slice(context, 'tail')

async function slice(context: CommandContext, which: 'head' | 'tail'): Promise<number> {
  // `head -5` is old shorthand for `head -n 5`.
  const args = context.args.map((arg, index) =>
    /^-\d+$/.test(arg) && !['-n', '-c', '--lines', '--bytes'].includes(context.args[index - 1] ?? '') ? `-n${arg.slice(1)}` : arg,
  )
  const options = parseOptions(args, { flags: 'qvfF', values: 'nc', long: { lines: 'n', bytes: 'c', quiet: 'q', follow: 'f' } })
  if (options.error) {
    context.stderr.write(`${which}: ${options.error}\n`)
    return 1
  }
  const count = options.values.get('c')?.at(-1)
  const lines = options.values.get('n')?.at(-1) ?? '10'
  const spec = count ?? lines
  if (!/^[+-]?\d+$/.test(spec)) {
    context.stderr.write(`${which}: invalid number of ${count === undefined ? 'lines' : 'bytes'}: '${spec}'\n`)
    return 1
  }
  const { inputs, failed } = await readInputs(context, options.operands)
  const headers = (inputs.length > 1 || options.flags.has('v')) && !options.flags.has('q')
  for (const [index, input] of inputs.entries()) {
    if (headers) context.stdout.write(`${index > 0 ? '\n' : ''}==> ${input.name} <==\n`)
    const units = count === undefined ? input.text.split(/(?<=\n)/) : [...input.text]
    context.stdout.write(pick(units, spec, which).join(''))
  }
  return failed ? 1 : 0
}

function pick(units: string[], spec: string, which: 'head' | 'tail'): string[] {
  const number = Math.abs(Number(spec))
  if (which === 'head') return spec.startsWith('-') ? units.slice(0, Math.max(0, units.length - number)) : units.slice(0, number)
  if (spec.startsWith('+')) return units.slice(Math.max(0, number - 1))
  return number === 0 ? [] : units.slice(-number)
}
