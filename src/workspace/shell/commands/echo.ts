import type { CommandHandler } from './types'

/** `echo [-neE] args`: leading words made only of n/e/E are options, as in bash. */
export const echo: CommandHandler = ({ args, stdout }) => {
  let newline = true
  let escapes = false
  let index = 0
  for (; index < args.length && /^-[neE]+$/.test(args[index]!); index++) {
    for (const letter of args[index]!.slice(1)) {
      if (letter === 'n') newline = false
      else escapes = letter === 'e'
    }
  }
  let text = args.slice(index).join(' ')
  if (escapes) {
    const { value, stop } = interpretEscapes(text)
    text = value
    if (stop) newline = false
  }
  stdout.write(newline ? `${text}\n` : text)
  return 0
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
}

/** Backslash escapes of `echo -e` and `printf`; `\c` stops all further output. */
export function interpretEscapes(text: string): { value: string; stop: boolean } {
  let value = ''
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (char !== '\\' || index + 1 >= text.length) {
      value += char
      continue
    }
    const next = text[++index]!
    if (next === 'c') return { value, stop: true }
    if (SIMPLE_ESCAPES[next] !== undefined) value += SIMPLE_ESCAPES[next]
    else if (next === '0' || /[1-7]/.test(next)) {
      const digits = /^[0-7]{0,3}/.exec(text.slice(next === '0' ? index + 1 : index))![0]
      value += String.fromCharCode(parseInt(digits || '0', 8))
      index += digits.length - (next === '0' ? 0 : 1)
    } else if (next === 'x') {
      const digits = /^[0-9a-fA-F]{1,2}/.exec(text.slice(index + 1))?.[0]
      if (digits) {
        value += String.fromCharCode(parseInt(digits, 16))
        index += digits.length
      } else value += '\\x'
    } else value += `\\${next}`
  }
  return { value, stop: false }
}
