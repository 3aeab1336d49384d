import { parseOptions } from './options'
import type { CommandHandler } from './types'

const CLASSES: Record<string, string> = {
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digit: '0123456789',
  space: ' \t\n\r\f\v',
  blank: ' \t',
  punct: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  xdigit: '0123456789ABCDEFabcdef',
}
CLASSES.alpha = CLASSES.lower! + CLASSES.upper!
CLASSES.alnum = CLASSES.alpha + CLASSES.digit!

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', f: '\f', v: '\v', '0': '\0' }

/** `tr [-dsc] SET1 [SET2]`: ranges (`a-z`), classes (`[:upper:]`) and escapes (`\n`). */
export const tr: CommandHandler = ({ args, stdin, stdout, stderr }) => {
  const options = parseOptions(args, { flags: 'dscCt', long: { delete: 'd', 'squeeze-repeats': 's', complement: 'c' } })
  const [first, second] = options.operands
  if (options.error || first === undefined) {
    stderr.write(`tr: ${options.error ?? 'missing operand'}\n`)
    return 1
  }
  const complement = options.flags.has('c') || options.flags.has('C')
  const source = expandSet(first)
  const inSource = (char: string) => source.includes(char) !== complement
  const deleting = options.flags.has('d')
  const squeeze = options.flags.has('s')
  if (!deleting && second === undefined && !squeeze) {
    stderr.write(`tr: missing operand after '${first}'\n`)
    return 1
  }
  const target = second === undefined ? [] : expandSet(second)
  // With two sets the squeeze applies to the second (what is written), with one set to the first.
  const squeezes = (char: string) => (second === undefined ? inSource(char) : target.includes(char))
  let output = ''
  for (const char of stdin) {
    if (deleting && inSource(char)) continue
    let mapped = char
    if (!deleting && target.length > 0 && inSource(char)) {
      const index = complement ? target.length - 1 : source.indexOf(char)
      mapped = target[Math.min(index, target.length - 1)]!
    }
    if (squeeze && output.endsWith(mapped) && squeezes(mapped)) continue
    output += mapped
  }
  stdout.write(output)
  return 0
}

function expandSet(spec: string): string[] {
  const chars: string[] = []
  for (let index = 0; index < spec.length; index++) {
    const rest = spec.slice(index)
    const named = /^\[:(\w+):\]/.exec(rest)
    if (named && CLASSES[named[1]!]) {
      chars.push(...CLASSES[named[1]!]!)
      index += named[0].length - 1
      continue
    }
    let char = spec[index]!
    if (char === '\\' && index + 1 < spec.length) char = ESCAPES[spec[++index]!] ?? spec[index]!
    if (spec[index + 1] === '-' && index + 2 < spec.length) {
      let end = spec[index + 2]!
      index += 2
      if (end === '\\' && index + 1 < spec.length) end = ESCAPES[spec[++index]!] ?? spec[index]!
      for (let code = char.charCodeAt(0); code <= end.charCodeAt(0); code++) chars.push(String.fromCharCode(code))
      continue
    }
    chars.push(char)
  }
  return chars
}
