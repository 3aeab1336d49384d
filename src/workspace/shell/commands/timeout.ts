import type { CommandHandler } from './types'

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }

/** `timeout DURATION command…`: stops the command after DURATION with status 124, as coreutils does. */
export const timeout: CommandHandler = async (context) => {
  const args = context.args.filter((arg, index) => !(arg.startsWith('-') && context.args.slice(0, index).every((item) => item.startsWith('-'))))
  const [duration, ...command] = args
  const match = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(duration ?? '')
  if (!match || command.length === 0) {
    context.stderr.write(match ? 'timeout: missing command\n' : `timeout: invalid time interval '${duration ?? ''}'\n`)
    return 125
  }
  const controller = new AbortController()
  const milliseconds = Number(match[1]) * UNITS[match[2]!]! * 1000
  // Zero means no limit, as in coreutils.
  const timer = milliseconds > 0 ? setTimeout(() => controller.abort(), milliseconds) : undefined
  try {
    const status = await context.shell.run(command, context, { signal: AbortSignal.any([context.signal, controller.signal]) })
    return controller.signal.aborted ? 124 : status
  } catch (error) {
    if (controller.signal.aborted && !context.signal.aborted) return 124
    throw error
  } finally {
    clearTimeout(timer)
  }
}
