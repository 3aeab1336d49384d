import { interpretEscapes } from './echo'
import type { CommandHandler } from './types'

const CONVERSION = /%([-+ 0#]*)(\d+|\*)?(?:\.(\d+|\*))?([sdifgeExXocb%])/g

/** `printf FORMAT args…`: the format is reused until every argument is consumed, as in bash. */
export const printf: CommandHandler = ({ args, stdout, stderr }) => {
  const [format, ...rest] = args
  if (format === undefined) {
    stderr.write('printf: usage: printf format [arguments]\n')
    return 2
  }
  let status = 0
  let remaining = rest
  let output = ''
  do {
    let consumed = 0
    let stopped = false
    const take = () => remaining[consumed++]
    let last = 0
    const literal = (text: string) => {
      if (stopped) return
      const escaped = interpretEscapes(text)
      output += escaped.value
      stopped = escaped.stop
    }
    for (const match of format.matchAll(CONVERSION)) {
      literal(format.slice(last, match.index))
      last = match.index + match[0].length
      if (stopped) break
      const [, flags = '', width, precision, conversion = 's'] = match
      if (conversion === '%') {
        output += '%'
        continue
      }
      const widthValue = width === '*' ? Number(take() ?? 0) : width === undefined ? undefined : Number(width)
      const precisionValue = precision === '*' ? Number(take() ?? 0) : precision === undefined ? undefined : Number(precision)
      const argument = take()
      let text: string
      if (conversion === 's') text = (argument ?? '').slice(0, precisionValue)
      else if (conversion === 'b') {
        const escaped = interpretEscapes(argument ?? '')
        stopped = escaped.stop
        text = escaped.value
      } else if (conversion === 'c') text = (argument ?? '').slice(0, 1)
      else {
        const number = toNumber(argument ?? '0')
        if (number === undefined) {
          stderr.write(`printf: ${argument}: invalid number\n`)
          status = 1
        }
        text = formatNumber(number ?? 0, conversion, flags, precisionValue)
      }
      output += pad(text, widthValue, flags, conversion)
      if (stopped) break
    }
    literal(format.slice(last))
    if (stopped) break
    remaining = remaining.slice(consumed)
    if (consumed === 0) break
  } while (remaining.length > 0)
  stdout.write(output)
  return status
}

function toNumber(text: string): number | undefined {
  // A leading quote gives the character's code, as in `printf %d "'a"`.
  if (/^['"]/.test(text)) return text.codePointAt(1) ?? 0
  const value = Number(text.trim())
  return Number.isNaN(value) ? undefined : value
}

function formatNumber(value: number, conversion: string, flags: string, precision: number | undefined): string {
  const sign = value < 0 ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : ''
  const magnitude = Math.abs(value)
  switch (conversion) {
    case 'd':
    case 'i':
      return sign + String(Math.trunc(magnitude))
    case 'x':
      return Math.trunc(value).toString(16)
    case 'X':
      return Math.trunc(value).toString(16).toUpperCase()
    case 'o':
      return Math.trunc(value).toString(8)
    case 'e':
    case 'E': {
      const text = magnitude.toExponential(precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2')
      return sign + (conversion === 'E' ? text.toUpperCase() : text)
    }
    case 'g':
      return sign + String(Number(magnitude.toPrecision(precision || 6)))
    default:
      return sign + magnitude.toFixed(precision ?? 6)
  }
}

function pad(text: string, width: number | undefined, flags: string, conversion: string): string {
  if (width === undefined || text.length >= width) return text
  if (flags.includes('-')) return text.padEnd(width)
  if (flags.includes('0') && conversion !== 's') {
    const sign = /^[-+ ]/.test(text) ? text[0]! : ''
    return sign + text.slice(sign.length).padStart(width - sign.length, '0')
  }
  return text.padStart(width)
}
