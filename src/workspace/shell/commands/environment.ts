import type { CommandHandler } from './types'

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** `env` prints the variables; `env NAME=value… command` runs the command with them. */
export const env: CommandHandler = async (context) => {
  const extra: Record<string, string> = {}
  let index = 0
  for (; index < context.args.length; index++) {
    const arg = context.args[index]!
    if (arg === '-i' || arg === '-') continue
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(arg)
    if (!match) break
    extra[match[1]!] = match[2]!
  }
  const command = context.args.slice(index)
  if (command.length > 0) return context.shell.run(command, context, { variables: extra })
  const variables = { ...context.env, ...extra }
  context.stdout.write(Object.entries(variables).map(([key, value]) => `${key}=${value}\n`).join(''))
  return 0
}

/** `export NAME=value…` (every variable is passed on here, so it is an assignment); no arguments lists them. */
export const exportVariables: CommandHandler = ({ args, env: variables, shell, stdout, stderr }) => {
  const names = args.filter((arg) => arg !== '-n' && arg !== '-p')
  if (names.length === 0) {
    stdout.write(Object.entries(variables).map(([key, value]) => `declare -x ${key}="${value.replace(/(["\\$`])/g, '\\$1')}"\n`).join(''))
    return 0
  }
  let status = 0
  for (const arg of names) {
    const equals = arg.indexOf('=')
    const name = equals === -1 ? arg : arg.slice(0, equals)
    if (!NAME.test(name)) {
      stderr.write(`export: \`${arg}': not a valid identifier\n`)
      status = 1
      continue
    }
    if (equals !== -1) shell.setVariable(name, arg.slice(equals + 1))
  }
  return status
}

export const unset: CommandHandler = ({ args, shell }) => {
  for (const name of args.filter((arg) => !arg.startsWith('-'))) shell.unsetVariable(name)
  return 0
}

/** `which NAME…`: builtins answer from /usr/bin; tools that need WebContainer are not found. */
export const which: CommandHandler = ({ args, shell, stdout }) => {
  let status = 0
  for (const name of args.filter((arg) => !arg.startsWith('-'))) {
    if (shell.commandType(name) === 'builtin') stdout.write(`/usr/bin/${name}\n`)
    else status = 1
  }
  return status
}

/** `type NAME…`, in bash's words. */
export const type: CommandHandler = ({ args, shell, stdout, stderr }) => {
  let status = 0
  for (const name of args.filter((arg) => !arg.startsWith('-'))) {
    if (shell.commandType(name) === 'builtin') stdout.write(`${name} is /usr/bin/${name}\n`)
    else {
      stderr.write(`type: ${name}: not found\n`)
      status = 1
    }
  }
  return status
}
