/**
 * Options of one git subcommand: each spelling (`-m`, `--message`) mapped to one name. `flags` take no value,
 * `values` take one (`-m msg`, `-mmsg`, `--message=msg`, `--message msg`).
 */
export interface OptionSpec {
  flags?: Record<string, string>
  values?: Record<string, string>
  /** `-5` as `-n 5`, as `git log` reads it. */
  numeric?: string
}

export interface ParsedArgs {
  /** Every value given per option name, in order; a flag has one empty string per use. */
  options: Map<string, string[]>
  /** Positional arguments before `--`. */
  operands: string[]
  /** Arguments after `--` (paths, for the commands that take them). */
  paths: string[]
  /** Whether `--` was given. */
  dashDash: boolean
}

/** A usage error, worded as git words it; git exits 129 on these. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export function parseArgs(args: readonly string[], spec: OptionSpec): ParsedArgs {
  const options = new Map<string, string[]>()
  const add = (name: string, value: string) => options.set(name, [...(options.get(name) ?? []), value])
  const flags = spec.flags ?? {}
  const values = spec.values ?? {}
  const parsed: ParsedArgs = { options, operands: [], paths: [], dashDash: false }
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '--') {
      parsed.dashDash = true
      parsed.paths.push(...args.slice(index + 1))
      break
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=')
      const key = equals === -1 ? arg : arg.slice(0, equals)
      if (flags[key] && equals === -1) add(flags[key], '')
      else if (values[key]) {
        const value = equals === -1 ? args[++index] : arg.slice(equals + 1)
        if (value === undefined) throw new UsageError(`error: option \`${key.slice(2)}' requires a value`)
        add(values[key], value)
      } else throw new UsageError(`error: unknown option \`${arg.slice(2)}'`)
      continue
    }
    if (arg.startsWith('-') && arg.length > 1) {
      if (spec.numeric && /^-\d+$/.test(arg)) {
        add(spec.numeric, arg.slice(1))
        continue
      }
      // Bundled switches: `-am msg` is `-a -m msg`; a switch that takes a value takes the rest of the word.
      for (let at = 1; at < arg.length; at++) {
        const key = `-${arg[at]}`
        if (flags[key]) add(flags[key], '')
        else if (values[key]) {
          const value = at + 1 < arg.length ? arg.slice(at + 1) : args[++index]
          if (value === undefined) throw new UsageError(`error: switch \`${arg[at]}' requires a value`)
          add(values[key], value)
          break
        } else throw new UsageError(`error: unknown switch \`${arg[at]}'`)
      }
      continue
    }
    parsed.operands.push(arg)
  }
  return parsed
}
