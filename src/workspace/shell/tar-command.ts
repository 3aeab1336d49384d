import type { CommandContext, ExecResult } from 'just-bash'

/**
 * `tar` for the offline shell. just-bash's browser build leaves its own tar out (it needs Node's zlib and native
 * compressors), so the app's shell has this one in both builds: create, list and extract, plain or gzip (`-z`, and a
 * gzip archive is recognised on reading as GNU tar does). Archives are built by modern-tar, gzip by fflate.
 */

interface TarRequest {
  mode: 'create' | 'extract' | 'list'
  file: string | undefined
  gzip: boolean
  verbose: boolean
  directory: string | undefined
  /** What to add (create), or which members to take (extract, list; all when empty). */
  names: string[]
}

const LONG: Record<string, string> = { '--create': 'c', '--extract': 'x', '--get': 'x', '--list': 't', '--gzip': 'z', '--gunzip': 'z', '--verbose': 'v' }

function usage(message: string): ExecResult {
  return { stdout: '', stderr: `tar: ${message}\nTry 'tar --help' for more information.\n`, exitCode: 2 }
}

/** GNU tar's argument forms: a first word of bundled letters without a dash (`czf`), `-czf`, long options. */
export function parseTarArguments(args: readonly string[]): TarRequest | string {
  const request: Partial<TarRequest> & { names: string[] } = { names: [], gzip: false, verbose: false }
  const words = [...args]
  if (words[0] && !words[0].startsWith('-')) words[0] = `-${words[0]}`
  const setMode = (mode: TarRequest['mode']) => {
    if (request.mode && request.mode !== mode) return 'You may not specify more than one \'-Acdtrux\', \'--delete\' or  \'--test-label\' option'
    request.mode = mode
    return undefined
  }
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!
    if (word === '--') {
      request.names.push(...words.slice(index + 1))
      break
    }
    if (word.startsWith('--')) {
      const [name, value] = word.split(/=(.*)/s, 2) as [string, string | undefined]
      if (name === '--file' || name === '--directory') {
        const given = value ?? words[++index]
        if (given === undefined) return `option '${name}' requires an argument`
        if (name === '--file') request.file = given
        else request.directory = given
        continue
      }
      const letter = LONG[name]
      if (!letter) return `unrecognized option '${word}'`
      const problem = apply(letter)
      if (problem) return problem
      continue
    }
    if (word.startsWith('-') && word.length > 1) {
      for (let at = 1; at < word.length; at++) {
        const letter = word[at]!
        if (letter === 'f' || letter === 'C') {
          const rest = word.slice(at + 1)
          const given = rest !== '' ? rest : words[++index]
          if (given === undefined) return `option requires an argument -- '${letter}'`
          if (letter === 'f') request.file = given
          else request.directory = given
          break
        }
        const problem = apply(letter)
        if (problem) return problem
      }
      continue
    }
    request.names.push(word)
  }
  function apply(letter: string): string | undefined {
    if (letter === 'c') return setMode('create')
    if (letter === 'x') return setMode('extract')
    if (letter === 't') return setMode('list')
    if (letter === 'z') request.gzip = true
    else if (letter === 'v') request.verbose = true
    else return `invalid option -- '${letter}'`
    return undefined
  }
  if (!request.mode) return "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options"
  if (request.mode === 'create' && request.names.length === 0) return 'Cowardly refusing to create an empty archive'
  return request as TarRequest
}

const join = (base: string, path: string) => (path.startsWith('/') ? path : `${base.replace(/\/$/, '')}/${path}`)

export async function tarCommand(args: string[], context: CommandContext): Promise<ExecResult> {
  const request = parseTarArguments(args)
  if (typeof request === 'string') return usage(request)
  if (request.file === undefined || request.file === '-') {
    return { stdout: '', stderr: 'tar: this tar reads and writes archive files only: name one with -f\n', exitCode: 2 }
  }
  const [{ packTar, unpackTar }, { gzipSync, gunzipSync }] = await Promise.all([import('modern-tar'), import('fflate')])
  const fs = context.fs
  const archivePath = join(context.cwd, request.file)
  const base = request.directory === undefined ? context.cwd : join(context.cwd, request.directory)
  let stdout = ''
  let stderr = ''
  if (request.directory !== undefined && !(await fs.stat(base).catch(() => undefined))?.isDirectory) {
    return { stdout: '', stderr: `tar: ${request.directory}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n`, exitCode: 2 }
  }

  if (request.mode === 'create') {
    const entries: Parameters<typeof packTar>[0][number][] = []
    const add = async (name: string): Promise<void> => {
      const path = join(base, name)
      const info = await fs.stat(path).catch(() => undefined)
      if (!info) {
        stderr += `tar: ${name}: Cannot stat: No such file or directory\n`
        return
      }
      // An archive never holds absolute names: GNU tar strips the leading slash and says so.
      const stored = name.replace(/^\/+/, '')
      if (request.verbose) stdout += `${stored}${info.isDirectory ? '/' : ''}\n`
      if (info.isDirectory) {
        entries.push({ header: { name: `${stored.replace(/\/$/, '')}/`, type: 'directory', size: 0, mode: 0o755, mtime: info.mtime } })
        for (const child of (await fs.readdir(path)).sort()) await add(`${name.replace(/\/$/, '')}/${child}`)
      } else {
        const data = await fs.readFileBuffer(path)
        entries.push({ header: { name: stored, type: 'file', size: data.length, mode: info.mode & 0o777 || 0o644, mtime: info.mtime }, body: data })
      }
    }
    for (const name of request.names) await add(name)
    const archive = await packTar(entries)
    await fs.writeFile(archivePath, request.gzip ? gzipSync(archive) : archive)
    return { stdout, stderr, exitCode: stderr ? 2 : 0 }
  }

  const bytes = await fs.readFileBuffer(archivePath).catch(() => undefined)
  if (!bytes) return { stdout: '', stderr: `tar: ${request.file}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n`, exitCode: 2 }
  let archive = bytes
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      archive = gunzipSync(bytes)
    } catch {
      return { stdout: '', stderr: 'tar: Child returned status 1\ntar: Error is not recoverable: exiting now\n', exitCode: 2 }
    }
  }
  let entries
  try {
    entries = await unpackTar(archive)
  } catch {
    return { stdout: '', stderr: 'tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n', exitCode: 2 }
  }
  const wanted = (name: string) =>
    request.names.length === 0 || request.names.some((member) => name === member || name.startsWith(`${member.replace(/\/$/, '')}/`) || name === `${member}/`)
  const found = new Set<string>()
  for (const entry of entries) {
    const name = entry.header.name
    if (!wanted(name)) continue
    for (const member of request.names) if (name === member || name.startsWith(`${member.replace(/\/$/, '')}/`)) found.add(member)
    if (request.mode === 'list') {
      stdout += request.verbose ? `${describe(entry.header)}\n` : `${name}\n`
      continue
    }
    const relative = name.replace(/^\/+/, '')
    // A member that climbs out of the target directory is refused, as GNU tar refuses it.
    if (relative.split('/').includes('..')) {
      stderr += `tar: ${name}: Member name contains '..'\n`
      continue
    }
    if (request.verbose) stdout += `${name}\n`
    const target = join(base, relative)
    if (entry.header.type === 'directory') await fs.mkdir(target, { recursive: true })
    else if (entry.header.type === 'file' || entry.header.type === undefined) {
      await fs.mkdir(target.slice(0, target.lastIndexOf('/')) || '/', { recursive: true })
      await fs.writeFile(target, entry.data ?? new Uint8Array())
    } else stderr += `tar: ${name}: skipped (${entry.header.type} entries are not supported here)\n`
  }
  for (const member of request.names) if (!found.has(member)) stderr += `tar: ${member}: Not found in archive\n`
  return { stdout, stderr, exitCode: stderr ? 2 : 0 }
}

function describe(header: { name: string; size: number; mode?: number; mtime?: Date; type?: string }): string {
  const kind = header.type === 'directory' ? 'd' : '-'
  const mode = header.mode ?? 0o644
  const bits = [6, 3, 0].map((shift) => ['r', 'w', 'x'].map((letter, bit) => ((mode >> (shift + 2 - bit)) & 1 ? letter : '-')).join('')).join('')
  const when = (header.mtime ?? new Date(0)).toISOString().slice(0, 16).replace('T', ' ')
  return `${kind}${bits} user/user ${String(header.size).padStart(8)} ${when} ${header.name}`
}
