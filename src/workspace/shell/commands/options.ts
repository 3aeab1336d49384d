export interface OptionSpec {
  /** Single-letter flags without a value, e.g. `'rnil'`. */
  flags?: string
  /** Single-letter options that take a value, e.g. `'n'` for `-n 5` / `-n5`. */
  values?: string
  /** Long names to their letter, e.g. `{ recursive: 'r', lines: 'n' }`; letters not in flags/values are long-only. */
  long?: Record<string, string>
}

export interface ParsedOptions {
  flags: Set<string>
  /** Every value given, in order (`grep -e a -e b`). */
  values: Map<string, string[]>
  operands: string[]
  /** Set when an option is unknown or lacks its value; the message follows `name: `. */
  error?: string
}

/** GNU-style options: clusters (`-rf`), attached values (`-n5`), long options, `--`, and options after operands. */
export function parseOptions(args: string[], spec: OptionSpec): ParsedOptions {
  const flags = spec.flags ?? ''
  const valued = spec.values ?? ''
  const result: ParsedOptions = { flags: new Set(), values: new Map(), operands: [] }
  const addValue = (key: string, value: string) => result.values.set(key, [...(result.values.get(key) ?? []), value])
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '--') {
      result.operands.push(...args.slice(index + 1))
      break
    }
    if (arg.startsWith('--')) {
      const [name, inline] = splitOnce(arg.slice(2), '=')
      const key = spec.long?.[name]
      if (key === undefined) return { ...result, error: `unrecognized option '${arg}'` }
      if (valued.includes(key)) {
        const value = inline ?? args[++index]
        if (value === undefined) return { ...result, error: `option '--${name}' requires an argument` }
        addValue(key, value)
      } else if (inline !== undefined) addValue(key, inline)
      else result.flags.add(key)
      continue
    }
    if (!arg.startsWith('-') || arg === '-') {
      result.operands.push(arg)
      continue
    }
    for (let position = 1; position < arg.length; position++) {
      const letter = arg[position]!
      if (valued.includes(letter)) {
        const value = position + 1 < arg.length ? arg.slice(position + 1) : args[++index]
        if (value === undefined) return { ...result, error: `option requires an argument -- '${letter}'` }
        addValue(letter, value)
        break
      }
      if (!flags.includes(letter)) return { ...result, error: `invalid option -- '${letter}'` }
      result.flags.add(letter)
    }
  }
  return result
}

/** The last value given for an option. */
export function lastValue(options: ParsedOptions, key: string): string | undefined {
  return options.values.get(key)?.at(-1)
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator)
  return index === -1 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)]
}
