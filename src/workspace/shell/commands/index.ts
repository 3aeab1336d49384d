import { cat } from './cat'
import { cp, mv } from './copy'
import { cut } from './cut'
import { diff } from './diff'
import { cd, mkdir, pwd, rmdir } from './directory'
import { echo } from './echo'
import { env, exportVariables, type, unset, which } from './environment'
import { find } from './find'
import { grep } from './grep'
import { head, tail } from './head-tail'
import { ls } from './ls'
import { node } from './node'
import { basename, dirname, realpath } from './path-names'
import { printf } from './printf'
import { read } from './read'
import { rm } from './remove'
import { sed } from './sed'
import { sh, source } from './shell'
import { sleep } from './sleep'
import { sort } from './sort'
import { exit, fail, loopControl, succeed } from './status'
import { date, seq, uname, whoami } from './system'
import { tee } from './tee'
import { test } from './test'
import { timeout } from './timeout'
import { touch } from './touch'
import { tr } from './tr'
import type { CommandHandler } from './types'
import { uniq } from './uniq'
import { wc } from './wc'
import { xargs } from './xargs'

export const COMMANDS: ReadonlyMap<string, CommandHandler> = new Map(
  Object.entries({
    ':': succeed,
    '.': source,
    '[': test,
    '[[': test,
    basename,
    bash: sh,
    break: loopControl,
    cat,
    cd,
    clear: succeed,
    continue: loopControl,
    cp,
    cut,
    date,
    diff,
    dirname,
    echo,
    env,
    exit,
    export: exportVariables,
    false: fail,
    find,
    grep,
    egrep: (context) => grep({ ...context, args: ['-E', ...context.args] }),
    fgrep: (context) => grep({ ...context, args: ['-F', ...context.args] }),
    head,
    ls,
    mkdir,
    mv,
    node,
    nodejs: node,
    printf,
    pwd,
    read,
    realpath,
    rm,
    rmdir,
    sed,
    seq,
    sh,
    sleep,
    sort,
    source,
    tail,
    tee,
    test,
    timeout,
    touch,
    tr,
    true: succeed,
    type,
    uname,
    uniq,
    unset,
    wc,
    which,
    whoami,
    xargs,
  } satisfies Record<string, CommandHandler>),
)

/**
 * Programs a coding agent reaches for that need a real runtime. Saying so (instead of "command not found") tells
 * the model to stop retrying and use the file tools, or to wait for WebContainer.
 */
const UNAVAILABLE = new Set([
  'npm', 'npx', 'pnpm', 'yarn', 'bun', 'bunx', 'deno', 'tsc', 'tsx', 'ts-node', 'vite', 'vitest',
  'jest', 'eslint', 'prettier', 'git', 'python', 'python3', 'pip', 'pip3', 'cargo', 'rustc', 'go', 'java', 'javac',
  'make', 'gcc', 'cc', 'clang', 'ruby', 'php', 'curl', 'wget', 'docker', 'code', 'open', 'rg', 'fd', 'jq', 'awk',
  'gawk', 'perl', 'zip', 'unzip', 'tar', 'gzip', 'ssh',
])

export const UNAVAILABLE_MESSAGE = 'not available in the offline workspace (WebContainer is not running)'

export function commandType(name: string): 'builtin' | 'unavailable' | undefined {
  if (COMMANDS.has(name)) return 'builtin'
  if (UNAVAILABLE.has(name)) return 'unavailable'
  return undefined
}
