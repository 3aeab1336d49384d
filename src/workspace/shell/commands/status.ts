import type { CommandHandler } from './types'

export const succeed: CommandHandler = () => 0
export const fail: CommandHandler = () => 1

/** `exit [N]`: N defaults to the status of the last command. */
export const exit: CommandHandler = ({ args, status, shell, stderr }) => {
  const [code] = args
  if (code !== undefined && !/^-?\d+$/.test(code)) {
    stderr.write(`exit: ${code}: numeric argument required\n`)
    return shell.exit(2)
  }
  return shell.exit(code === undefined ? status : ((Number(code) % 256) + 256) % 256)
}

export const loopControl: CommandHandler = ({ name, args, shell, stderr }) => {
  const levels = Number(args[0] ?? 1)
  if (!Number.isInteger(levels) || levels < 1) {
    stderr.write(`${name}: ${args[0]}: loop count out of range\n`)
    return 1
  }
  return shell.loop(name === 'break' ? 'break' : 'continue', levels)
}
