/**
 * One use of every command README.md's table names for the offline shell, with what it prints: e2e/shell-commands.spec.ts
 * runs them all in the built app (just-bash's browser build, as users get it). The files they read are made first by
 * `SHELL_COMMANDS_SETUP`.
 */

export const SHELL_COMMANDS_SETUP = [
  'mkdir -p t && cd t',
  "printf 'b\\na\\nc\\n' > abc.txt",
  "printf 'a\\nz\\n' > az.txt",
  'sort abc.txt > sorted.txt',
  "printf '1 a\\n2 b\\n' > j1.txt",
  "printf '1 x\\n2 y\\n' > j2.txt",
].join(' && ')

/** [command name, a command line using it, what the line prints (stdout and stderr)]. */
export const SHELL_COMMANDS: [name: string, line: string, output: string][] = [
  ['echo', 'echo hello world', 'hello world\n'],
  ['printf', "printf '%s-%03d\\n' x 7", 'x-007\n'],
  ['cat', 'cat abc.txt', 'b\na\nc\n'],
  ['touch', 'touch t1 && ls t1', 't1\n'],
  ['ls', 'mkdir -p l && touch l/x l/y && ls l', 'x\ny\n'],
  ['mkdir', 'mkdir -p m/n && ls m', 'n\n'],
  ['rmdir', 'rmdir m/n && ls m && echo emptied', 'emptied\n'],
  ['rm', 'rm t1 && test ! -e t1 && echo gone', 'gone\n'],
  ['cp', 'cp abc.txt copy.txt && head -n 1 copy.txt', 'b\n'],
  ['mv', 'mv copy.txt moved.txt && ls moved.txt && test ! -e copy.txt && echo moved', 'moved.txt\nmoved\n'],
  // The workspace stores files with neither links nor permission bits (src/workspace/shell/workspace-fs.ts): ln fails,
  // readlink finds no link, chmod is accepted and changes nothing, as README.md says.
  ['ln', 'ln abc.txt hard.txt 2>/dev/null; echo "status $?"', 'status 1\n'],
  ['readlink', 'readlink abc.txt; echo "status $?"', 'status 1\n'],
  ['chmod', 'chmod 600 az.txt && stat -c %a az.txt', '644\n'],
  ['pwd', 'pwd', '/workspace/t\n'],
  ['head', 'head -n 2 abc.txt', 'b\na\n'],
  ['tail', 'tail -n 1 abc.txt', 'c\n'],
  ['wc', 'wc -l < abc.txt', '3\n'],
  ['stat', 'stat -c %s abc.txt', '6\n'],
  ['grep', 'grep -n a abc.txt', '2:a\n'],
  ['fgrep', 'fgrep -c . abc.txt', '0\n'],
  ['egrep', "egrep '^(a|c)$' abc.txt", 'a\nc\n'],
  ['rg', "rg --no-line-number '^b' abc.txt", 'b\n'],
  ['sed', "sed 's/a/A/' abc.txt", 'b\nA\nc\n'],
  ['awk', 'awk \'{ print NR ":" $0 }\' abc.txt | tail -n 1', '3:c\n'],
  ['sort', 'sort -r abc.txt', 'c\nb\na\n'],
  ['uniq', "printf 'x\\nx\\ny\\n' | uniq", 'x\ny\n'],
  ['comm', 'comm -12 sorted.txt az.txt', 'a\n'],
  ['cut', 'echo a:b:c | cut -d: -f2', 'b\n'],
  ['paste', 'paste -sd, abc.txt', 'b,a,c\n'],
  ['tr', 'echo hi | tr a-z A-Z', 'HI\n'],
  ['rev', 'echo abc | rev', 'cba\n'],
  ['nl', 'nl abc.txt | head -n 1', '     1\tb\n'],
  ['fold', 'echo abcdef | fold -w 2', 'ab\ncd\nef\n'],
  ['expand', "printf 'a\\tb\\n' | expand -t 4", 'a   b\n'],
  ['unexpand', "printf '        b\\n' | unexpand", '\tb\n'],
  ['strings', "printf 'hello\\001\\002world!\\n' | strings", 'hello\nworld!\n'],
  ['split', 'split -l 1 abc.txt part- && cat part-ab', 'a\n'],
  ['column', "printf 'a b\\ncc d\\n' | column -t", 'a   b\ncc  d\n'],
  ['join', 'join j1.txt j2.txt', '1 a x\n2 b y\n'],
  ['tee', 'echo teed | tee tee.txt > /dev/null && cat tee.txt', 'teed\n'],
  ['find', "find . -name 'ab*'", './abc.txt\n'],
  ['basename', 'basename /a/b/c.txt .txt', 'c\n'],
  ['dirname', 'dirname /a/b/c.txt', '/a/b\n'],
  ['tree', 'tree l', 'l\n|-- x\n`-- y\n\n0 directories, 2 files\n'],
  ['du', 'du -s m | cut -f2', 'm\n'],
  ['env', "env | grep -c '^HOME='", '1\n'],
  ['printenv', 'printenv HOME', '/workspace\n'],
  ['alias', "alias ll='ls -l'; alias ll", "alias ll='ls -l'\n"],
  ['unalias', "alias ll='ls -l'; unalias ll && alias ll 2>/dev/null || echo unaliased", 'unaliased\n'],
  ['history', 'history > /dev/null && echo history', 'history\n'],
  ['xargs', 'echo a b | xargs -n 1 echo x', 'x a\nx b\n'],
  ['true', 'true && echo yes', 'yes\n'],
  ['false', 'false || echo no', 'no\n'],
  ['clear', 'clear > /dev/null && echo cleared', 'cleared\n'],
  ['bash', "bash -c 'echo $((1 + 2))'", '3\n'],
  ['sh', "sh -c 'echo from sh'", 'from sh\n'],
  ['jq', 'echo \'{"a":[1,2]}\' | jq -c \'.a | map(. * 2)\'', '[2,4]\n'],
  ['base64', 'echo -n hi | base64', 'aGk=\n'],
  ['diff', 'diff abc.txt sorted.txt > /dev/null; echo "differ $?"', 'differ 1\n'],
  ['date', 'date -u -d @0 +%Y', '1970\n'],
  ['sleep', 'sleep 0.1 && echo slept', 'slept\n'],
  ['timeout', 'timeout 0.2 sleep 5; echo "status $?"', 'status 124\n'],
  ['time', '{ time true; } 2>&1 | grep -c real', '1\n'],
  ['seq', 'seq 3', '1\n2\n3\n'],
  ['expr', 'expr 6 \\* 7', '42\n'],
  ['md5sum', 'echo -n hi | md5sum', '49f68a5c8493ec2c0bf489821c21fc3b  -\n'],
  ['sha1sum', 'echo -n hi | sha1sum', 'c22b5f9178342609428d6f51b2c5af4c0bde6a42  -\n'],
  ['sha256sum', 'echo -n hi | sha256sum', '8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4  -\n'],
  ['file', 'file abc.txt', 'abc.txt: ASCII text\n'],
  ['html-to-markdown', "echo '<h1>Title</h1><p>Some <b>bold</b> text</p>' | html-to-markdown", '# Title\n\nSome **bold** text\n'],
  ['help', 'help | head -n 1', 'just-bash shell builtins\n'],
  ['which', 'which ls node', '/usr/bin/ls\n/usr/bin/node\n'],
  ['tac', 'tac abc.txt', 'c\na\nb\n'],
  ['hostname', 'hostname', 'localhost\n'],
  ['whoami', 'whoami', 'user\n'],
  ['od', 'echo -n AB | od -c', '0000000    A   B\n0000002\n'],
  ['gzip', 'gzip -k abc.txt && gzip -l abc.txt.gz | tail -n 1 | grep -o abc.txt$', 'abc.txt\n'],
  ['gunzip', 'cp abc.txt.gz g.txt.gz && gunzip g.txt.gz && cat g.txt', 'b\na\nc\n'],
  ['zcat', 'zcat abc.txt.gz | tail -n 1', 'c\n'],
  ['tar', 'tar czf a.tgz abc.txt az.txt && tar tzf a.tgz && mkdir x && tar xzf a.tgz -C x && cat x/az.txt', 'abc.txt\naz.txt\na\nz\n'],
]

/** The whole run as one command line: a marker line before each command's output, so each can be checked apart. */
export function shellCommandsScript(): string {
  return [SHELL_COMMANDS_SETUP, ...SHELL_COMMANDS.map(([name, line]) => `echo '@@ ${name}'; ${line}`)].join('\n')
}

/** What each command printed, by name, from the run's output. */
export function outputsByCommand(output: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  for (const section of output.split(/^@@ /m).slice(1)) {
    const end = section.indexOf('\n')
    outputs[section.slice(0, end)] = section.slice(end + 1)
  }
  return outputs
}
