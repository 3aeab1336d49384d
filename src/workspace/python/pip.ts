import type { ProgramRequest, ProgramResult } from '../runtime/program'
import type { WheelStore } from './wheel-store'
import { OFFLINE_WHEELS, findWheel, parseRequirement, requirementLines, resolve, setNames, type Requirement, type Wheel } from './wheels'

/**
 * `pip` in the offline workspace: installs from tabcode's offline set of pure-Python wheels (wheels.ts), nothing
 * else, and says plainly what it cannot install and why. The subcommands and messages follow pip's own.
 */
/** What pip needs of the installed set (a WheelStore; a fake in the tests). */
export type PipStore = Pick<WheelStore, 'list' | 'has' | 'remove' | 'install' | 'restore'>

export type PipCommand =
  | { kind: 'install'; requirements: string[]; files: string[]; quiet: boolean; dependencies: boolean }
  | { kind: 'uninstall'; names: string[] }
  | { kind: 'list' }
  | { kind: 'freeze' }
  | { kind: 'show'; names: string[] }
  | { kind: 'version' }
  | { kind: 'help' }
  /** pip exits 2 on a usage error, 1 on an unknown command. */
  | { kind: 'usage'; message: string; exitCode: number }

const SITE_PACKAGES = '/lib/python3.14/site-packages'
const NO_NETWORK = 'installing from PyPI needs the network, which programs here do not have'
/** Options that change nothing here (there is one environment and no network): accepted and ignored. */
const IGNORED_FLAGS = new Set(['-U', '--upgrade', '--user', '--no-cache-dir', '--disable-pip-version-check', '--no-input', '--pre', '--break-system-packages', '--no-index', '--only-binary=:all:', '--prefer-binary', '--force-reinstall', '-v', '--verbose'])
const IGNORED_WITH_VALUE = new Set(['-i', '--index-url', '--extra-index-url', '-f', '--find-links', '-c', '--constraint', '--only-binary', '--target', '-t'])

export function parsePipArgs(args: readonly string[]): PipCommand {
  const global = args.findIndex((arg) => !arg.startsWith('-'))
  const options = global === -1 ? args : args.slice(0, global)
  if (options.includes('--version') || options.includes('-V')) return { kind: 'version' }
  if (global === -1) return { kind: 'help' }
  const command = args[global]!
  const rest = args.slice(global + 1)
  switch (command) {
    case 'install':
      return parseInstall(rest)
    case 'uninstall': {
      const names = rest.filter((arg) => !arg.startsWith('-'))
      if (names.length === 0) return { kind: 'usage', message: 'ERROR: You must give at least one requirement to uninstall (see "pip help uninstall")', exitCode: 1 }
      return { kind: 'uninstall', names }
    }
    case 'list':
      return { kind: 'list' }
    case 'freeze':
      return { kind: 'freeze' }
    case 'show': {
      const names = rest.filter((arg) => !arg.startsWith('-'))
      if (names.length === 0) return { kind: 'usage', message: 'ERROR: Please provide a package name or names.', exitCode: 1 }
      return { kind: 'show', names }
    }
    case 'help':
      return { kind: 'help' }
    default:
      return { kind: 'usage', message: `ERROR: unknown command "${command}" (this pip knows install, uninstall, list, freeze, show)`, exitCode: 1 }
  }
}

function parseInstall(args: readonly string[]): PipCommand {
  const requirements: string[] = []
  const files: string[] = []
  let quiet = false
  let dependencies = true
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (arg === '-r' || arg === '--requirement') {
      const file = args[++index]
      if (file === undefined) return { kind: 'usage', message: `ERROR: ${arg} option requires 1 argument`, exitCode: 2 }
      files.push(file)
    } else if (arg.startsWith('--requirement=')) files.push(arg.slice('--requirement='.length))
    else if (arg === '-q' || arg === '--quiet') quiet = true
    else if (arg === '--no-deps') dependencies = false
    else if (arg === '-e' || arg === '--editable') return { kind: 'usage', message: `ERROR: editable installs need a build backend and the network; ${NO_NETWORK}`, exitCode: 1 }
    else if (IGNORED_FLAGS.has(arg)) continue
    else if (IGNORED_WITH_VALUE.has(arg)) index++
    else if ([...IGNORED_WITH_VALUE].some((option) => arg.startsWith(`${option}=`))) continue
    else if (arg.startsWith('-')) return { kind: 'usage', message: `ERROR: no such option: ${arg}`, exitCode: 2 }
    else requirements.push(arg)
  }
  if (requirements.length === 0 && files.length === 0) return { kind: 'usage', message: 'ERROR: You must give at least one requirement to install (see "pip help install")', exitCode: 1 }
  return { kind: 'install', requirements, files, quiet, dependencies }
}

export async function runPipCommand(store: PipStore, name: string, args: readonly string[], request: ProgramRequest): Promise<ProgramResult> {
  const command = parsePipArgs(args)
  const out = request.onStdout
  const err = request.onStderr
  await store.restore(request.onNotice ?? err)
  switch (command.kind) {
    case 'usage':
      err(`${command.message}\n`)
      return { exitCode: command.exitCode }
    case 'help':
      out(helpText(name))
      return { exitCode: 0 }
    case 'version':
      out(`pip (tabcode's offline set) from ${SITE_PACKAGES} (python 3.14)\n`)
      return { exitCode: 0 }
    case 'list': {
      const rows = store.list().sort((a, b) => a.name.localeCompare(b.name))
      const width = Math.max('Package'.length, ...rows.map((wheel) => wheel.name.length))
      const versionWidth = Math.max('Version'.length, ...rows.map((wheel) => wheel.version.length))
      out([`${'Package'.padEnd(width)} Version`, `${'-'.repeat(width)} ${'-'.repeat(versionWidth)}`, ...rows.map((wheel) => `${wheel.name.padEnd(width)} ${wheel.version}`)].join('\n') + '\n')
      return { exitCode: 0 }
    }
    case 'freeze':
      out(
        store
          .list()
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((wheel) => `${wheel.name}==${wheel.version}\n`)
          .join(''),
      )
      return { exitCode: 0 }
    case 'show':
      return show(store, command.names, request)
    case 'uninstall':
      for (const package_ of command.names) {
        const wheel = await store.remove(package_)
        if (!wheel) err(`WARNING: Skipping ${package_} as it is not installed.\n`)
        else out(`Found existing installation: ${wheel.name} ${wheel.version}\nUninstalling ${wheel.name}-${wheel.version}:\n  Successfully uninstalled ${wheel.name}-${wheel.version}\n`)
      }
      return { exitCode: 0 }
    case 'install':
      return install(store, command, request)
  }
}

function show(store: PipStore, names: readonly string[], request: ProgramRequest): ProgramResult {
  const found = names.map((name) => findWheel(name, store.list())).filter((wheel): wheel is Wheel => wheel !== undefined)
  const blocks = found.map((wheel) => {
    const requiredBy = store.list().filter((other) => other.requires.some((dependency) => findWheel(dependency, [wheel])))
    return [`Name: ${wheel.name}`, `Version: ${wheel.version}`, `Location: ${SITE_PACKAGES}`, `Requires: ${wheel.requires.join(', ')}`, `Required-by: ${requiredBy.map((other) => other.name).join(', ')}`].join('\n')
  })
  if (blocks.length > 0) request.onStdout(`${blocks.join('\n---\n')}\n`)
  const missing = names.filter((name) => !findWheel(name, store.list()))
  if (missing.length === 0) return { exitCode: 0 }
  request.onStderr(`WARNING: Package(s) not found: ${missing.join(', ')}\n`)
  return { exitCode: 1 }
}

async function install(store: PipStore, command: Extract<PipCommand, { kind: 'install' }>, request: ProgramRequest): Promise<ProgramResult> {
  const texts = [...command.requirements]
  for (const file of command.files) {
    const path = file.startsWith('/') ? file : `${request.cwd}/${file}`
    const text = await request.files.readText(path).catch(() => undefined)
    if (text === undefined) {
      request.onStderr(`ERROR: Could not open requirements file: [Errno 2] No such file or directory: '${file}'\n`)
      return { exitCode: 1 }
    }
    texts.push(...requirementLines(text))
  }
  const local = texts.filter((text) => text === '.' || text.includes('/') || text.endsWith('.whl') || text.endsWith('.tar.gz'))
  if (local.length > 0) {
    request.onStderr(`ERROR: cannot install ${local.join(', ')}: installing a local project, file or URL needs a build backend or the network; only tabcode's offline set (${setNames()}) can be installed here\n`)
    return { exitCode: 1 }
  }
  const requirements: Requirement[] = []
  for (const text of texts) {
    const requirement = parseRequirement(text)
    if (!requirement) {
      request.onStderr(`ERROR: Invalid requirement: '${text}'\n`)
      return { exitCode: 1 }
    }
    requirements.push(requirement)
  }
  const resolution = resolve(requirements)
  if (resolution.type === 'unknown') {
    const names = resolution.names.join(', ')
    request.onStderr(`ERROR: ${names} ${resolution.names.length === 1 ? 'is' : 'are'} not in tabcode's offline set (${setNames()}); ${NO_NETWORK}.\n`)
    return { exitCode: 1 }
  }
  if (resolution.type === 'version') {
    request.onStderr(`ERROR: tabcode's offline set has ${resolution.wheel.name} ${resolution.wheel.version} only, not ${resolution.requirement.text}; ${NO_NETWORK}.\n`)
    return { exitCode: 1 }
  }
  const chosen = command.dependencies ? resolution.wheels : resolution.wheels.filter((wheel) => requirements.some((requirement) => findWheel(requirement.name, [wheel])))
  const out = command.quiet ? () => undefined : request.onStdout
  for (const requirement of requirements) {
    const wheel = findWheel(requirement.name)!
    if (store.has(wheel.name)) out(`Requirement already satisfied: ${requirement.text} in ${SITE_PACKAGES} (${wheel.version})\n`)
  }
  const fresh = chosen.filter((wheel) => !store.has(wheel.name))
  if (fresh.length === 0) return { exitCode: 0 }
  for (const wheel of fresh) out(`Processing ${wheel.file} (tabcode's offline set)\n`)
  const result = await store.install(fresh, request.onStderr)
  if (result.type === 'failed') {
    request.onStderr(`ERROR: ${result.message}; ${NO_NETWORK}.\n`)
    return { exitCode: 1 }
  }
  out(`Installing collected packages: ${fresh.map((wheel) => wheel.name).join(', ')}\n`)
  out(`Successfully installed ${sortedByName(fresh).map((wheel) => `${wheel.name}-${wheel.version}`).join(' ')}\n`)
  return { exitCode: 0 }
}

/**
 * Installs what `requirement` needs when it is not installed yet (`pytest` on first use), with one line of progress
 * on stderr; the message of a failure, or undefined.
 */
export async function ensureInstalled(store: PipStore, name: string, request: Pick<ProgramRequest, 'onStderr'>): Promise<string | undefined> {
  if (store.has(name)) return undefined
  const resolution = resolve([{ name, pinned: undefined, text: name }])
  if (resolution.type !== 'resolved') return `${name} is not in tabcode's offline set`
  const fresh = resolution.wheels.filter((wheel) => !store.has(wheel.name))
  let progress = false
  const result = await store.install(fresh, (text) => {
    progress = true
    request.onStderr(text)
  })
  if (result.type === 'failed') return `${name} is not installed and could not be installed: ${result.message}; ${NO_NETWORK}`
  if (!progress) request.onStderr(`Installed ${sortedByName(fresh).map((wheel) => `${wheel.name}-${wheel.version}`).join(' ')} from tabcode's offline set\n`)
  return undefined
}

function sortedByName(wheels: readonly Wheel[]): Wheel[] {
  return [...wheels].sort((a, b) => a.name.localeCompare(b.name))
}

export function helpText(name: string): string {
  return [
    `Usage: ${name} <command> [options]`,
    '',
    "Installs pure-Python packages from tabcode's offline set, served by the app itself; programs here have no",
    `network, so nothing else can be installed. The set: ${OFFLINE_WHEELS.map((wheel) => `${wheel.name} ${wheel.version}`).join(', ')}.`,
    '',
    'Commands:',
    '  install      Install packages (names, name==version, -r requirements.txt).',
    '  uninstall    Uninstall packages.',
    '  list         List installed packages.',
    '  freeze       Output installed packages in requirements format.',
    '  show         Show information about installed packages.',
    '',
  ].join('\n')
}
