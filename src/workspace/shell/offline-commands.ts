import { PROGRAMS } from './programs'

/** The shell's builtins, which no command list names (just-bash runs them inside its interpreter). */
const BUILTINS = [
  ':', '.', '[', '[[', 'alias', 'break', 'builtin', 'cd', 'command', 'continue', 'declare', 'dirs', 'echo', 'eval', 'exit', 'export',
  'false', 'getopts', 'hash', 'let', 'local', 'mapfile', 'popd', 'printf', 'pushd', 'pwd', 'read', 'readarray', 'readonly', 'return',
  'set', 'shift', 'shopt', 'source', 'test', 'trap', 'true', 'type', 'typeset', 'umask', 'unalias', 'unset',
]

/**
 * Commands just-bash's Node build has and its browser build does not: the unit tests load the first, the app the
 * second, so these never count as offline (tar is ours, see tar-command.ts; html-to-markdown is made to work in a worker).
 */
const NOT_IN_THE_APP = new Set(['yq', 'xan', 'sqlite3', 'js-exec', 'curl'])

/** Our own commands beside the runtimes. */
const OURS = ['tar']

let names: Promise<ReadonlySet<string>> | undefined

/** Every command the offline workspace runs, whatever build of just-bash is loaded (`npm` aside: it is checked apart). */
export function offlineCommands(): Promise<ReadonlySet<string>> {
  names ??= import('just-bash').then(({ getCommandNames }) => {
    const all = new Set<string>([...BUILTINS, ...OURS])
    for (const name of getCommandNames()) if (!NOT_IN_THE_APP.has(name)) all.add(name)
    // pip among them: it installs from the offline set of wheels (and says plainly what it cannot install).
    for (const name of Object.keys(PROGRAMS)) all.add(name)
    return all
  })
  return names
}
