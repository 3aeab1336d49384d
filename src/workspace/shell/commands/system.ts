import type { CommandHandler } from './types'

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** `date [-u] [-I] [+FORMAT]`, always in UTC (the worker's time zone would only make output vary between machines). */
export const date: CommandHandler = ({ args, now, stdout, stderr }) => {
  const time = new Date(now())
  const format = args.find((arg) => arg.startsWith('+'))
  const unknown = args.find((arg) => !arg.startsWith('+') && !['-u', '--utc', '-I', '--iso-8601', '-R'].includes(arg))
  if (unknown) {
    stderr.write(`date: unsupported argument '${unknown}'\n`)
    return 1
  }
  if (args.includes('-I') || args.includes('--iso-8601')) stdout.write(`${formatDate(time, '%F')}\n`)
  else if (args.includes('-R')) stdout.write(`${formatDate(time, '%a, %d %b %Y %H:%M:%S +0000')}\n`)
  else stdout.write(`${formatDate(time, format ? format.slice(1) : '%a %b %e %H:%M:%S UTC %Y')}\n`)
  return 0
}

export function formatDate(time: Date, format: string): string {
  const two = (value: number) => String(value).padStart(2, '0')
  const fields: Record<string, () => string> = {
    Y: () => String(time.getUTCFullYear()),
    y: () => two(time.getUTCFullYear() % 100),
    m: () => two(time.getUTCMonth() + 1),
    d: () => two(time.getUTCDate()),
    e: () => String(time.getUTCDate()).padStart(2),
    H: () => two(time.getUTCHours()),
    M: () => two(time.getUTCMinutes()),
    S: () => two(time.getUTCSeconds()),
    N: () => String(time.getUTCMilliseconds() * 1_000_000).padStart(9, '0'),
    s: () => String(Math.floor(time.getTime() / 1000)),
    a: () => DAYS[time.getUTCDay()]!,
    A: () => time.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }),
    b: () => MONTHS[time.getUTCMonth()]!,
    h: () => MONTHS[time.getUTCMonth()]!,
    B: () => time.toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' }),
    F: () => `${fields.Y!()}-${fields.m!()}-${fields.d!()}`,
    T: () => `${fields.H!()}:${fields.M!()}:${fields.S!()}`,
    Z: () => 'UTC',
    z: () => '+0000',
    j: () => String(Math.floor((time.getTime() - Date.UTC(time.getUTCFullYear(), 0, 1)) / 86_400_000) + 1).padStart(3, '0'),
    n: () => '\n',
    t: () => '\t',
    '%': () => '%',
  }
  return format.replace(/%(.)/g, (match, key: string) => fields[key]?.() ?? match)
}

export const whoami: CommandHandler = ({ env, stdout }) => {
  stdout.write(`${env.USER ?? 'user'}\n`)
  return 0
}

export const uname: CommandHandler = ({ args, stdout }) => {
  stdout.write(args.includes('-a') ? 'Linux tabcode 6.0.0 #1 SMP x86_64 GNU/Linux\n' : 'Linux\n')
  return 0
}

/** `seq [-s SEP] [-w] [FIRST [STEP]] LAST` */
export const seq: CommandHandler = ({ args, stdout, stderr }) => {
  let separator = '\n'
  let equalWidth = false
  const numbers: number[] = []
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '-s') separator = args[++index] ?? '\n'
    else if (arg.startsWith('-s') && arg.length > 2) separator = arg.slice(2)
    else if (arg === '-w') equalWidth = true
    else if (!Number.isNaN(Number(arg)) && arg.trim() !== '') numbers.push(Number(arg))
    else {
      stderr.write(`seq: invalid floating point argument: '${arg}'\n`)
      return 1
    }
  }
  if (numbers.length === 0 || numbers.length > 3) {
    stderr.write(numbers.length === 0 ? 'seq: missing operand\n' : `seq: extra operand '${args.at(-1)}'\n`)
    return 1
  }
  const [first, step, last] =
    numbers.length === 1
      ? [1, 1, numbers[0]!]
      : numbers.length === 2
        ? [numbers[0]!, 1, numbers[1]!]
        : (numbers as [number, number, number])
  if (step === 0) {
    stderr.write("seq: invalid Zero increment value: '0'\n")
    return 1
  }
  const decimals = Math.max(...numbers.map((value) => (String(value).split('.')[1] ?? '').length))
  const values: string[] = []
  for (let value = first; step > 0 ? value <= last + 1e-9 : value >= last - 1e-9; value += step) values.push(value.toFixed(decimals))
  const width = equalWidth ? Math.max(...values.map((value) => value.length)) : 0
  if (values.length > 0) stdout.write(`${values.map((value) => value.padStart(width, '0')).join(separator)}\n`)
  return 0
}
