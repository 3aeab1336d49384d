import { parseOptions } from './options'
import { readInputs, splitLines, type CommandHandler } from './types'

/** `cut -f LIST [-d DELIM] [-s]` or `cut -c LIST`; LIST like `1,3`, `2-`, `-4`, `1-3`. */
export const cut: CommandHandler = async (context) => {
  const options = parseOptions(context.args, {
    flags: 's',
    values: 'fdcb',
    long: { fields: 'f', delimiter: 'd', characters: 'c', bytes: 'b', 'only-delimited': 's' },
  })
  const fields = options.values.get('f')?.at(-1)
  const characters = options.values.get('c')?.at(-1) ?? options.values.get('b')?.at(-1)
  if (options.error || (fields === undefined) === (characters === undefined)) {
    context.stderr.write(`cut: ${options.error ?? 'you must specify a list of bytes, characters, or fields'}\n`)
    return 1
  }
  const ranges = parseList(fields ?? characters!)
  if (!ranges) {
    context.stderr.write(`cut: invalid field value '${fields ?? characters}'\n`)
    return 1
  }
  const delimiter = options.values.get('d')?.at(-1) ?? '\t'
  if (delimiter.length !== 1) {
    context.stderr.write('cut: the delimiter must be a single character\n')
    return 1
  }
  const selected = (position: number) => ranges.some(([start, end]) => position >= start && position <= end)
  const { inputs, failed } = await readInputs(context, options.operands)
  let output = ''
  for (const line of inputs.flatMap((input) => splitLines(input.text))) {
    if (characters !== undefined) {
      output += `${[...line].filter((_, index) => selected(index + 1)).join('')}\n`
      continue
    }
    if (!line.includes(delimiter)) {
      if (!options.flags.has('s')) output += `${line}\n`
      continue
    }
    output += `${line
      .split(delimiter)
      .filter((_, index) => selected(index + 1))
      .join(delimiter)}\n`
  }
  context.stdout.write(output)
  return failed ? 1 : 0
}

function parseList(spec: string): [number, number][] | undefined {
  const ranges: [number, number][] = []
  for (const item of spec.split(',')) {
    const match = /^(\d*)(-?)(\d*)$/.exec(item)
    if (!match || item === '' || item === '-') return undefined
    const start = match[1] ? Number(match[1]) : 1
    const end = match[2] ? (match[3] ? Number(match[3]) : Infinity) : start
    if (start < 1) return undefined
    ranges.push([start, end])
  }
  return ranges
}
