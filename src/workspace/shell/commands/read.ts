import type { CommandHandler } from './types'

/**
 * `read [-r] [-p PROMPT] [NAME…]`: one line of stdin into variables, split on blanks, the last name taking the
 * rest (REPLY without names). Status 1 at the end of input. Unlike bash, a last line without a newline is still
 * read with status 0, so `while read` loops do not silently drop it.
 */
export const read: CommandHandler = (context) => {
  const names: string[] = []
  let raw = false
  for (let index = 0; index < context.args.length; index++) {
    const arg = context.args[index]!
    if (arg === '-r') raw = true
    else if (arg === '-p' || arg === '-t' || arg === '-u' || arg === '-d' || arg === '-n') index++
    else if (/^-[rs]+$/.test(arg)) raw ||= arg.includes('r')
    else names.push(arg)
  }
  let line = context.readLine()
  if (line === undefined) return 1
  if (!raw) {
    // A backslash at the end joins the next line; elsewhere it quotes the next character.
    while (line.endsWith('\\')) line = line.slice(0, -1) + (context.readLine() ?? '')
    line = line.replace(/\\(.)/g, '$1')
  }
  if (names.length === 0) {
    context.shell.setVariable('REPLY', line)
    return 0
  }
  let rest = line.replace(/^[ \t]+/, '')
  for (const [index, name] of names.entries()) {
    if (index === names.length - 1) {
      context.shell.setVariable(name, rest.replace(/[ \t]+$/, ''))
      break
    }
    const match = /^(\S*)[ \t]*/.exec(rest)!
    context.shell.setVariable(name, match[1]!)
    rest = rest.slice(match[0].length)
  }
  return 0
}
