import { expect, it } from 'vitest'
import { offlineCommands } from './offline-commands'

// README.md's table names exactly these, and e2e/shell-commands.spec.ts runs each once in the built app: a command
// that comes or goes with a just-bash update must change all three.
const README_COMMANDS =
  'alias awk base64 basename bash cat chmod clear column comm cp cut date diff dirname du echo egrep env expand expr false fgrep file find fold grep gunzip gzip head help history hostname html-to-markdown join jq ln ls md5sum mkdir mv nl od paste printenv printf pwd readlink rev rg rm rmdir sed seq sh sha1sum sha256sum sleep sort split stat strings tac tail tar tee time timeout touch tr tree true unalias unexpand uniq wc which whoami xargs zcat'

const BUILTINS = ': . [ [[ break builtin cd command continue declare dirs eval exit export getopts hash let local mapfile popd pushd read readarray readonly return set shift shopt source test trap type typeset umask unset'
const RUNTIMES = 'python python3 pip pip3 pytest node nodejs git'

it('has the commands README.md lists, the shell’s builtins and our runtimes, and nothing else', async () => {
  const expected = new Set([README_COMMANDS, BUILTINS, RUNTIMES].flatMap((list) => list.split(' ')))
  expect([...(await offlineCommands())].sort()).toEqual([...expected].sort())
})
