import { toRegExpSource } from './regex'
import { describeError, readInputs, resolveIn, type CommandHandler } from './types'

type Address = { type: 'line'; line: number } | { type: 'last' } | { type: 'regex'; expression: RegExp }

type Action =
  | { kind: 's'; expression: RegExp; replacement: string; global: boolean; occurrence: number; print: boolean }
  | { kind: 'y'; source: string[]; target: string[] }
  | { kind: 'p' | 'd' | 'q' | 'Q' | '=' | 'P' }
  | { kind: 'a' | 'i' | 'c'; text: string }

type SedCommand = Action & { from?: Address; to?: Address; negate: boolean; active: boolean }

class SedError extends Error {}

/** `sed [-n] [-E] [-i[SUFFIX]] [-e SCRIPT]… [SCRIPT] [file…]`: `s///`, `y///`, `p d q Q = a i c`, addresses and ranges. */
export const sed: CommandHandler = async (context) => {
  const parsed = parseArguments(context.args)
  if (typeof parsed === 'string') {
    context.stderr.write(`sed: ${parsed}\n`)
    return 1
  }
  let commands: SedCommand[]
  try {
    commands = parseScript(parsed.scripts.join('\n'), parsed.extended)
  } catch (error) {
    context.stderr.write(`sed: -e expression #1: ${describeError(error)}\n`)
    return 1
  }
  if (parsed.inPlace !== undefined) {
    if (parsed.files.length === 0) {
      context.stderr.write('sed: no input files\n')
      return 1
    }
    let status = 0
    for (const file of parsed.files) {
      const path = resolveIn(context, file)
      const text = await context.fs.readText(path).catch((error: unknown) => {
        context.stderr.write(`sed: can't read ${file}: ${describeError(error)}\n`)
        return undefined
      })
      if (text === undefined) {
        status = 2
        continue
      }
      if (parsed.inPlace) await context.fs.writeFile(`${path}${parsed.inPlace}`, text)
      for (const command of commands) command.active = false
      await context.fs.writeFile(path, run(commands, text, parsed.quiet).output)
    }
    return status
  }
  const { inputs, failed } = await readInputs(context, parsed.files)
  const result = run(commands, inputs.map((input) => input.text).join(''), parsed.quiet)
  context.stdout.write(result.output)
  return failed ? 2 : result.exitCode
}

function parseArguments(args: string[]): { scripts: string[]; files: string[]; quiet: boolean; extended: boolean; inPlace?: string } | string {
  const scripts: string[] = []
  const operands: string[] = []
  let quiet = false
  let extended = false
  let inPlace: string | undefined
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '--') {
      operands.push(...args.slice(index + 1))
      break
    }
    if (arg.startsWith('--')) {
      const [name, value] = arg.slice(2).split(/=(.*)/s)
      if (name === 'quiet' || name === 'silent') quiet = true
      else if (name === 'regexp-extended') extended = true
      else if (name === 'in-place') inPlace = value ?? ''
      else if (name === 'expression') {
        const script = value ?? args[++index]
        if (script === undefined) return "option '--expression' requires an argument"
        scripts.push(script)
      } else return `unknown option -- '${name}'`
      continue
    }
    if (!arg.startsWith('-') || arg === '-') {
      operands.push(arg)
      continue
    }
    for (let position = 1; position < arg.length; position++) {
      const letter = arg[position]!
      if (letter === 'n') quiet = true
      else if (letter === 'E' || letter === 'r') extended = true
      else if (letter === 's' || letter === 'u' || letter === 'z') continue
      else if (letter === 'i') {
        inPlace = arg.slice(position + 1)
        // BSD sed's `-i ''` (no backup) is common in scripts written on macOS.
        if (inPlace === '' && args[index + 1] === '') index++
        break
      } else if (letter === 'e') {
        const script = position + 1 < arg.length ? arg.slice(position + 1) : args[++index]
        if (script === undefined) return "option requires an argument -- 'e'"
        scripts.push(script)
        break
      } else return `invalid option -- '${letter}'`
    }
  }
  if (scripts.length === 0) {
    const script = operands.shift()
    if (script === undefined) return 'no script specified'
    scripts.push(script)
  }
  return { scripts, files: operands, quiet, extended, inPlace }
}

function parseScript(script: string, extended: boolean): SedCommand[] {
  const commands: SedCommand[] = []
  let index = 0
  const peek = () => script[index]
  const skipBlanks = () => {
    while (/[ \t\n;]/.test(script[index] ?? 'x')) index++
  }
  const readDelimited = (delimiter: string, command: string): string => {
    let text = ''
    for (;;) {
      const char = script[index++]
      if (char === undefined) throw new SedError(command === 'address' ? 'unterminated address regex' : `unterminated \`${command}' command`)
      if (char === delimiter) return text
      if (char === '\\' && script[index] === delimiter) {
        text += delimiter
        index++
      } else if (char === '\\' && script[index] === 'n') {
        text += '\n'
        index++
      } else if (char === '\\') {
        text += char + (script[index++] ?? '')
      } else text += char
    }
  }
  const regex = (source: string, flags = '') => {
    try {
      return new RegExp(toRegExpSource(source, extended ? 'extended' : 'basic'), flags)
    } catch {
      throw new SedError(`invalid regular expression: ${source}`)
    }
  }
  const readAddress = (): Address | undefined => {
    const char = peek()
    if (char === '$') {
      index++
      return { type: 'last' }
    }
    const digits = /^\d+/.exec(script.slice(index))
    if (digits) {
      index += digits[0].length
      return { type: 'line', line: Number(digits[0]) }
    }
    if (char === '/' || char === '\\') {
      index++
      const delimiter = char === '/' ? '/' : script[index++]!
      const source = readDelimited(delimiter, 'address')
      const insensitive = peek() === 'I'
      if (insensitive) index++
      return { type: 'regex', expression: regex(source, insensitive ? 'i' : '') }
    }
    return undefined
  }
  const readText = (): string => {
    // `a\` followed by a newline, `a\text` and GNU's one-line `a text` all give "text".
    if (peek() === '\\') index++
    if (peek() === '\n') index++
    while (peek() === ' ' || peek() === '\t') index++
    const end = script.indexOf('\n', index)
    const text = script.slice(index, end === -1 ? undefined : end)
    index = end === -1 ? script.length : end
    return text.replace(/\\(.)/g, '$1')
  }
  for (skipBlanks(); index < script.length; skipBlanks()) {
    const from = readAddress()
    let to: Address | undefined
    if (from && peek() === ',') {
      index++
      to = readAddress()
      if (!to) throw new SedError('unexpected `,\'')
    }
    while (peek() === ' ') index++
    let negate = false
    if (peek() === '!') {
      negate = true
      index++
      while (peek() === ' ') index++
    }
    const kind = script[index++]
    const base = { from, to, negate, active: false }
    switch (kind) {
      case 's': {
        const delimiter = script[index++]
        if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') throw new SedError('unterminated `s\' command')
        const source = readDelimited(delimiter, 's')
        const replacement = readDelimited(delimiter, 's')
        let global = false
        let print = false
        let occurrence = 1
        let flags = ''
        for (let flag = peek(); flag !== undefined && /[gpiIm0-9]/.test(flag); flag = peek()) {
          index++
          if (flag === 'g') global = true
          else if (flag === 'p') print = true
          else if (flag === 'i' || flag === 'I') flags += 'i'
          else if (flag === 'm') flags += 'm'
          else {
            const digits = /^\d+/.exec(script.slice(index - 1))![0]
            occurrence = Number(digits)
            index += digits.length - 1
          }
        }
        commands.push({ ...base, kind: 's', expression: regex(source, `g${flags}`), replacement, global, occurrence, print })
        break
      }
      case 'y': {
        const delimiter = script[index++]!
        const source = [...readDelimited(delimiter, 'y')]
        const target = [...readDelimited(delimiter, 'y')]
        if (source.length !== target.length) throw new SedError('strings for `y\' command are different lengths')
        commands.push({ ...base, kind: 'y', source, target })
        break
      }
      case 'p':
      case 'P':
      case 'd':
      case 'q':
      case 'Q':
      case '=':
        commands.push({ ...base, kind })
        break
      case 'a':
      case 'i':
      case 'c':
        commands.push({ ...base, kind, text: readText() })
        break
      default:
        throw new SedError(kind === undefined ? 'missing command' : `unknown command: \`${kind}'`)
    }
  }
  return commands
}

function run(commands: SedCommand[], text: string, quiet: boolean): { output: string; exitCode: number } {
  const lines = text.split('\n')
  const finalNewline = text.endsWith('\n')
  if (finalNewline || text === '') lines.pop()
  let output = ''
  for (const [index, line] of lines.entries()) {
    const number = index + 1
    const last = index === lines.length - 1
    const newline = last && !finalNewline ? '' : '\n'
    let pattern = line
    let deleted = false
    let quit = false
    let printPattern = !quiet
    const appended: string[] = []
    for (const command of commands) {
      if (!selects(command, number, pattern, last)) continue
      if (command.kind === 's') {
        const replaced = substitute(pattern, command)
        if (replaced !== undefined) {
          pattern = replaced
          if (command.print) output += `${pattern}\n`
        }
      } else if (command.kind === 'y') {
        pattern = [...pattern].map((char) => {
          const position = command.source.indexOf(char)
          return position === -1 ? char : command.target[position]!
        }).join('')
      } else if (command.kind === 'p') output += `${pattern}\n`
      else if (command.kind === 'P') output += `${pattern.split('\n')[0]}\n`
      else if (command.kind === '=') output += `${number}\n`
      else if (command.kind === 'a') appended.push(`${command.text}\n`)
      else if (command.kind === 'i') output += `${command.text}\n`
      else if (command.kind === 'c') {
        // In a range, the text replaces the whole range: it is written at the range's end.
        if (!command.to || !command.active) output += `${command.text}\n`
        deleted = true
        break
      } else if (command.kind === 'd') {
        deleted = true
        break
      } else if (command.kind === 'q') {
        quit = true
        break
      } else if (command.kind === 'Q') {
        quit = true
        printPattern = false
        break
      }
    }
    if (!deleted && printPattern) output += pattern + newline
    output += appended.join('')
    if (quit) break
  }
  return { output, exitCode: 0 }
}

function matches(address: Address, number: number, pattern: string, last: boolean): boolean {
  if (address.type === 'line') return address.line === number
  if (address.type === 'last') return last
  address.expression.lastIndex = 0
  return address.expression.test(pattern)
}

/** Whether a command applies to this line; a range stays active from its first address through its second. */
function selects(command: SedCommand, number: number, pattern: string, last: boolean): boolean {
  let selected: boolean
  if (!command.from) selected = true
  else if (!command.to) selected = matches(command.from, number, pattern, last)
  else if (command.active) {
    selected = true
    const to = command.to
    if (to.type === 'line' ? number >= to.line : matches(to, number, pattern, last)) command.active = false
  } else if (matches(command.from, number, pattern, last)) {
    selected = true
    const to = command.to
    command.active = !(to.type === 'line' ? to.line <= number : to.type === 'last' ? last : false)
  } else selected = false
  return selected !== command.negate
}

function substitute(pattern: string, command: Extract<Action, { kind: 's' }>): string | undefined {
  let count = 0
  let changed = false
  const result = pattern.replace(command.expression, (...match: unknown[]) => {
    count++
    const whole = match[0] as string
    if (count < command.occurrence || (!command.global && count > command.occurrence)) return whole
    changed = true
    // The callback gets the match, the groups, then the offset: the first number ends the groups.
    const groups = match.slice(1, match.findIndex((item) => typeof item === 'number')) as (string | undefined)[]
    return expandReplacement(command.replacement, whole, groups)
  })
  return changed ? result : undefined
}

/** `&` is the match, `\1`…`\9` the groups, `\n` a newline; `\&` and `\\` are literal. */
function expandReplacement(replacement: string, whole: string, groups: (string | undefined)[]): string {
  let result = ''
  for (let index = 0; index < replacement.length; index++) {
    const char = replacement[index]!
    if (char === '&') result += whole
    else if (char === '\\' && index + 1 < replacement.length) {
      const next = replacement[++index]!
      if (/[1-9]/.test(next)) result += groups[Number(next) - 1] ?? ''
      else if (next === 'n') result += '\n'
      else if (next === 't') result += '\t'
      else result += next
    } else result += char
  }
  return result
}
