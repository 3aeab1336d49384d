import { resolvePath } from './path'
import type { ProgramFiles } from './runtime/program'
import type { ExecOptions, ExecResult, Workspace } from './workspace'

/** Programs only WebContainer runs: Node's package managers (the offline runtime has no npm registry or native addons). */
const NEEDS_WEBCONTAINER = new Set(['npm', 'npx', 'yarn', 'pnpm', 'corepack'])

/** The first program of a command line that only WebContainer can run, if any. */
export function webContainerProgram(programs: readonly string[]): string | undefined {
  for (const program of programs) {
    const name = program.slice(program.lastIndexOf('/') + 1)
    if (NEEDS_WEBCONTAINER.has(name)) return name
  }
  return undefined
}

/**
 * The program of a command line that needs WebContainer, if any: a package manager, except an `npm` that runs a
 * package.json script whose commands the offline workspace has (issue 29: `npm test` of `node test.js` runs here).
 */
export async function webContainerProgramOf(command: string, programs: readonly string[], cwd: string, files: ProgramFiles): Promise<string | undefined> {
  const program = webContainerProgram(programs)
  if (program !== 'npm' || webContainerProgram(programs.filter((name) => name.slice(name.lastIndexOf('/') + 1) !== 'npm'))) return program
  // The npm check loads the shell's parser: only a line that names npm pays for it.
  const { npmLineRunsOffline } = await import('./shell/npm-command')
  return (await npmLineRunsOffline(command, cwd, files).catch(() => false)) ? undefined : program
}

/** Why a command was handed to WebContainer, in words for the user (the badge and the tool output show it). */
export function wantedReason(program: string): string {
  return `\`${program}\` needs Node.js and npm, which run in WebContainer.`
}

export interface OnDemandOptions {
  /** The programs a command line runs (the shell's own parser splits it, so this and the shell never disagree). */
  programs: (command: string) => Promise<readonly string[]>
  /** WebContainer for this project, booting it if it is allowed and not running; undefined (with why) when it can't be had. */
  want: (reason: string) => Promise<{ workspace: Workspace } | { unavailable: string }>
}

/**
 * The offline workspace, except that a command needing Node.js or npm asks for WebContainer first and runs there
 * once it is up. WebContainer therefore starts only when something needs it, never on a first visit; when it can't
 * start, the offline runtime answers and the output says why WebContainer could not take the command.
 */
export function onDemandWebContainer(local: Workspace, options: OnDemandOptions): Workspace {
  const exec = async (command: string, execOptions: ExecOptions): Promise<ExecResult> => {
    const programs = await options.programs(command).catch(() => [])
    const program = await webContainerProgramOf(command, programs, execOptions.cwd ? resolvePath(local.root, execOptions.cwd) : local.root, local)
    if (!program) return local.exec(command, execOptions)
    const wanted = await options.want(wantedReason(program))
    if ('workspace' in wanted) return wanted.workspace.exec(command, execOptions)
    const note = `WebContainer is not available: ${wanted.unavailable}\n`
    execOptions.onOutput?.(note)
    const result = await local.exec(command, execOptions)
    return { ...result, output: note + result.output }
  }
  return new Proxy(local, {
    get(target, key, receiver) {
      if (key === 'exec') return exec
      const value = Reflect.get(target, key, receiver) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
}

