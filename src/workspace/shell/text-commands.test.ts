import { describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import { runShell } from './run'

async function sh(command: string, files: Record<string, string> = {}) {
  const fs = createMemoryWorkspace(files)
  const result = await runShell(command, { fs, cwd: '/workspace' })
  return { output: result.output, exitCode: result.exitCode, fs }
}

const files = {
  'fruit.txt': 'banana\napple\ncherry\napple\n',
  'numbers.txt': '10\n9\n100\n-1\n',
  'table.csv': 'name,age,city\nann,31,paris\nbob,25,rome\n',
  'lines.txt': '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n',
}

describe('text commands', () => {
  it.each([
    ['echo -n a; echo b', 'ab\n'],
    ['echo -e "a\\tb\\nc"', 'a\tb\nc\n'],
    ['echo "a\\nb"', 'a\\nb\n'],
    ['printf "%s=%d\\n" a 1 b 2', 'a=1\nb=2\n'],
    ["printf '%5.2f|%-4s|%03d|%x|%%\\n' 3.14159 ab 7 255", ' 3.14|ab  |007|ff|%\n'],
    ["printf '%s\\n' 'no \\n escapes in arguments'", 'no \\n escapes in arguments\n'],
    ['head -n 2 fruit.txt', 'banana\napple\n'],
    ['head -3 lines.txt', '1\n2\n3\n'],
    ['head -c 3 fruit.txt', 'ban'],
    ['tail -n 2 lines.txt', '11\n12\n'],
    ['tail -n +11 lines.txt', '11\n12\n'],
    ['tail -1 fruit.txt', 'apple\n'],
    ['head -n 1 fruit.txt numbers.txt', '==> fruit.txt <==\nbanana\n\n==> numbers.txt <==\n10\n'],
    ['wc -l fruit.txt', '4 fruit.txt\n'],
    ['wc -l < fruit.txt', '4\n'],
    ['wc fruit.txt', ' 4  4 26 fruit.txt\n'],
    // just-bash pads counts wider than GNU (and `uniq -c` narrower): cosmetic, the library's wins.
    ['wc -l fruit.txt numbers.txt', '  4 fruit.txt\n  4 numbers.txt\n  8 total\n'],
    ['echo "one two  three" | wc -w', '3\n'],
    ['sort fruit.txt', 'apple\napple\nbanana\ncherry\n'],
    ['sort -r fruit.txt', 'cherry\nbanana\napple\napple\n'],
    ['sort -u fruit.txt', 'apple\nbanana\ncherry\n'],
    ['sort -n numbers.txt', '-1\n9\n10\n100\n'],
    ['sort -rn numbers.txt | head -1', '100\n'],
    ['sort -t, -k2 -n table.csv', 'name,age,city\nbob,25,rome\nann,31,paris\n'],
    ['sort fruit.txt | uniq', 'apple\nbanana\ncherry\n'],
    ['sort fruit.txt | uniq -c', '   2 apple\n   1 banana\n   1 cherry\n'],
    ['sort fruit.txt | uniq -d', 'apple\n'],
    ['echo Hello | tr a-z A-Z', 'HELLO\n'],
    ['echo "a;b;c" | tr ";" "\\n"', 'a\nb\nc\n'],
    ['echo "h e l l o" | tr -d " "', 'hello\n'],
    ['echo "aaa  bbb" | tr -s "a "', 'a bbb\n'],
    ['echo "abc123" | tr -cd "[:digit:]"', '123'],
    ['cut -d, -f1,3 table.csv', 'name,city\nann,paris\nbob,rome\n'],
    ['cut -d, -f2- table.csv | head -1', 'age,city\n'],
    ['cut -c1-3 fruit.txt | head -1', 'ban\n'],
    ['seq 3', '1\n2\n3\n'],
    ['seq -s, 2 2 8', '2,4,6,8\n'],
    ['seq 3 -1 1', '3\n2\n1\n'],
    ['basename /a/b/c.ts .ts; basename src/dir/', 'c\ndir\n'],
    ['dirname /a/b/c.ts; dirname file; dirname /top', '/a/b\n.\n/\n'],
    ['whoami', 'user\n'],
    // The clock is the real one now (just-bash reads Date): the shapes are what matter.
    ['date +%Y-%m-%dT%H:%M:%S | grep -cE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$"', '1\n'],
    ['date | grep -cE "^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} UTC [0-9]{4}$"', '1\n'],
    ['echo a b c | xargs -n 1 echo item', 'item a\nitem b\nitem c\n'],
    ['echo one two | xargs', 'one two\n'],
  ])('%s', async (command, expected) => {
    const result = await sh(command, files)
    expect(result.output).toBe(expected)
    expect(result.exitCode).toBe(0)
  })
})

// Where ours was right and just-bash 3.4.2 differs from bash: kept as expected failures, so an upgrade that
// fixes one shows up (the test then fails and can become an ordinary one).
describe('where just-bash differs from GNU', () => {
  for (const [command, expected] of [
    ['head -n -10 lines.txt', '1\n2\n'],
    ['printf "x\\ny\\n" | xargs -I{} echo "<{}>"', '<x>\n<y>\n'],
  ]) {
    it.fails(`${command} gives what GNU gives`, async () => {
      expect((await sh(command!, files)).output).toBe(expected)
    })
  }

  it.fails('sed -i with a suffix keeps a backup', async () => {
    const { fs } = await sh("sed -i.bak '1d' numbers.txt", files)
    expect(await fs.readText('numbers.txt.bak')).toBe('10\n9\n100\n-1\n')
  })

  // just-bash runs `s/a/b` as if it were `s/a/b/`.
  it.fails('sed reports a broken script with status 1', async () => {
    expect((await sh("sed 's/a/b' fruit.txt", files)).exitCode).toBe(1)
  })
})

describe('sed', () => {
  it.each([
    ["sed 's/apple/APPLE/' fruit.txt", 'banana\nAPPLE\ncherry\nAPPLE\n'],
    ["echo aaa | sed 's/a/b/g'", 'bbb\n'],
    ["echo aaa | sed 's/a/b/2'", 'aba\n'],
    ["echo 'hello world' | sed 's/\\(hello\\) \\(world\\)/\\2 \\1/'", 'world hello\n'],
    ["echo 'hello world' | sed -E 's/(\\w+) (\\w+)/[\\2] & [\\1]/'", '[world] hello world [hello]\n'],
    ["echo /usr/bin | sed 's|/usr|/opt|'", '/opt/bin\n'],
    ["sed -n '2,3p' fruit.txt", 'apple\ncherry\n'],
    ["sed -n '$p' fruit.txt", 'apple\n'],
    ["sed '/apple/d' fruit.txt", 'banana\ncherry\n'],
    ["sed '/apple/!d' fruit.txt", 'apple\napple\n'],
    ["sed -n '/banana/,/cherry/p' fruit.txt", 'banana\napple\ncherry\n'],
    ["sed '2q' fruit.txt", 'banana\napple\n'],
    ["sed '1i header' fruit.txt | head -2", 'header\nbanana\n'],
    ["sed '1a after' fruit.txt | head -3", 'banana\nafter\napple\n'],
    ["sed -e 's/a/A/' -e 's/b/B/' fruit.txt | head -1", 'BAnana\n'],
    ["sed 's/a/A/g; s/n/N/' fruit.txt | head -1", 'bANAnA\n'],
    ["sed -n '/an/=' fruit.txt", '1\n'],
    ["printf 'no newline' | sed 's/no/a/'", 'a newline'],
    ["echo abc | sed 'y/abc/xyz/'", 'xyz\n'],
  ])('%s', async (command, expected) => {
    expect((await sh(command, files)).output).toBe(expected)
  })

  it('edits files in place with -i', async () => {
    const { fs } = await sh("sed -i 's/apple/pear/g' fruit.txt && sed -i '1d' numbers.txt", files)
    expect(await fs.readText('fruit.txt')).toBe('banana\npear\ncherry\npear\n')
    expect(await fs.readText('numbers.txt')).toBe('9\n100\n-1\n')
  })
})

describe('diff', () => {
  it('prints a unified diff and exits 1 when files differ', async () => {
    const result = await sh('diff old.txt new.txt', { 'old.txt': 'a\nb\nc\n', 'new.txt': 'a\nB\nc\nd\n' })
    // just-bash prints jsdiff's patch: a `====` line first and a tab after each file name, which GNU does not.
    expect(result.output).toBe('===================================================================\n--- old.txt\t\n+++ new.txt\t\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n')
    expect(result.exitCode).toBe(1)
  })

  it('is silent with status 0 for equal files and says "differ" with -q', async () => {
    expect(await sh('diff a b', { a: 'x\n', b: 'x\n' })).toMatchObject({ exitCode: 0, output: '' })
    expect((await sh('diff -q a b', { a: 'x\n', b: 'y\n' })).output).toBe('Files a and b differ\n')
  })

  it('keeps hunks apart when the changes are far from each other', async () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`)
    const changed = lines.map((line, index) => (index === 1 || index === 17 ? `${line}!` : line))
    const result = await sh('diff -u a b', { a: `${lines.join('\n')}\n`, b: `${changed.join('\n')}\n` })
    expect(result.output.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,5 +1,5 @@', '@@ -15,6 +15,6 @@'])
  })
})

describe('test and [', () => {
  it.each([
    ['[ -f fruit.txt ]', 0],
    ['[ -d fruit.txt ]', 1],
    ['[ -e missing ]', 1],
    ['[ ! -e missing ]', 0],
    ['test -z ""', 0],
    ['test -n ""', 1],
    ['[ abc = abc ]', 0],
    ['[ abc != abc ]', 1],
    ['[ 5 -gt 3 -a 2 -le 2 ]', 0],
    ['[ 1 -eq 2 -o 3 -ne 4 ]', 0],
    ['[ -s fruit.txt ]', 0],
    ['[[ -f fruit.txt ]]', 0],
    ['[[ fruit.txt == *.txt ]]', 0],
    ['[ -f fruit.txt', 2],
    ['[ a -lt 3 ]', 2],
  ])('%s exits %i', async (command, status) => {
    expect((await sh(command, files)).exitCode).toBe(status)
  })
})
