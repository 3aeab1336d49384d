import { resolveIn, type CommandHandler } from './types'

/** `basename NAME [SUFFIX]` or `basename -s SUFFIX -a NAME…` */
export const basename: CommandHandler = ({ args, stdout, stderr }) => {
  let suffix: string | undefined
  let multiple = false
  const names: string[] = []
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '-a') multiple = true
    else if (arg === '-s') {
      suffix = args[++index]
      multiple = true
    } else names.push(arg)
  }
  if (names.length === 0) {
    stderr.write('basename: missing operand\n')
    return 1
  }
  if (!multiple && names.length === 2) suffix = names.pop()
  for (const name of multiple ? names : names.slice(0, 1)) {
    const trimmed = name.replace(/\/+$/, '')
    let base = trimmed === '' ? (name ? '/' : '') : trimmed.slice(trimmed.lastIndexOf('/') + 1)
    if (suffix && base !== suffix && base.endsWith(suffix)) base = base.slice(0, -suffix.length)
    stdout.write(`${base}\n`)
  }
  return 0
}

/** `dirname NAME…`, POSIX style: `a` → `.`, `/a` → `/`, `a/b/` → `a`. */
export const dirname: CommandHandler = ({ args, stdout, stderr }) => {
  if (args.length === 0) {
    stderr.write('dirname: missing operand\n')
    return 1
  }
  for (const name of args) {
    const trimmed = name.replace(/\/+$/, '')
    if (trimmed === '') {
      stdout.write(name.startsWith('/') ? '/\n' : '.\n')
      continue
    }
    const index = trimmed.lastIndexOf('/')
    stdout.write(index === -1 ? '.\n' : `${trimmed.slice(0, index).replace(/\/+$/, '') || '/'}\n`)
  }
  return 0
}

/** `realpath PATH…`: absolute and normalized (there are no symbolic links). */
export const realpath: CommandHandler = ({ args, cwd, stdout }) => {
  for (const arg of args.filter((item) => !item.startsWith('-'))) stdout.write(`${resolveIn({ cwd }, arg)}\n`)
  return 0
}
