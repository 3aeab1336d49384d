import type { CommandHandler } from './types'

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }

/** `sleep N[smhd]…`: waits on a timer that an abort or timeout cuts short. */
export const sleep: CommandHandler = async ({ args, signal, stderr }) => {
  if (args.length === 0) {
    stderr.write('sleep: missing operand\n')
    return 1
  }
  let seconds = 0
  for (const arg of args) {
    const match = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(arg)
    if (!match) {
      stderr.write(`sleep: invalid time interval '${arg}'\n`)
      return 1
    }
    seconds += Number(match[1]) * UNITS[match[2]!]!
  }
  await wait(seconds * 1000, signal)
  return signal.aborted ? 130 : 0
}

function wait(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, milliseconds)
    signal.addEventListener('abort', done)
  })
}
