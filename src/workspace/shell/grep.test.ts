import { describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import { runShell } from './run'

async function sh(command: string) {
  const fs = createMemoryWorkspace({
    'src/a.ts': 'export const a = 1\nconst b = 2\n// TODO: fix\n',
    'src/b.ts': 'import { a } from "./a"\nconsole.log(a)\n',
    'src/deep/c.tsx': 'export function C() {}\n',
    'notes.md': 'Alpha\nbeta\nTODO later\n',
  })
  await fs.writeFile('image.bin', new Uint8Array([84, 79, 68, 79, 0, 1, 2]))
  const result = await runShell(command, { fs, cwd: '/workspace' })
  return { output: result.output, exitCode: result.exitCode }
}

describe('grep', () => {
  it.each([
    ['grep const src/a.ts', 'export const a = 1\nconst b = 2\n'],
    ['grep -n TODO src/a.ts notes.md', 'src/a.ts:3:// TODO: fix\nnotes.md:3:TODO later\n'],
    ['grep -h TODO src/a.ts notes.md', '// TODO: fix\nTODO later\n'],
    ['grep -i alpha notes.md', 'Alpha\n'],
    ['grep -v e notes.md', 'Alpha\n'],
    ['grep -c const src/a.ts', '2\n'],
    ['grep -w a src/a.ts', 'export const a = 1\n'],
    ['grep -x beta notes.md', 'beta\n'],
    ['grep -E "const (a|b)" src/a.ts', 'export const a = 1\nconst b = 2\n'],
    ['grep "const \\(a\\|b\\)" src/a.ts', 'export const a = 1\nconst b = 2\n'],
    ['grep -F "a)" src/b.ts', 'console.log(a)\n'],
    ['grep "[[:upper:]]lpha" notes.md', 'Alpha\n'],
    ['grep -A1 Alpha notes.md', 'Alpha\nbeta\n'],
    ['grep -B1 -n beta notes.md', '1-Alpha\n2:beta\n'],
    ['grep -rl export src', 'src/a.ts\nsrc/deep/c.tsx\n'],
    ['grep -rL export src', 'src/b.ts\n'],
    ['grep -r export --include="*.tsx" src', 'src/deep/c.tsx:export function C() {}\n'],
    ['grep -r export --exclude-dir=deep src', 'src/a.ts:export const a = 1\n'],
    ['cat notes.md | grep -n beta', '2:beta\n'],
  ])('%s', async (command, expected) => {
    expect(await sh(command)).toEqual({ output: expected, exitCode: 0 })
  })

  it('exits 1 without a match and 2 on trouble', async () => {
    expect(await sh('grep nothing notes.md')).toEqual({ output: '', exitCode: 1 })
    expect(await sh('grep x missing.txt')).toEqual({ output: 'grep: missing.txt: No such file or directory\n', exitCode: 2 })
    // GNU exits 2 here; just-bash says the same words with status 1 (still a failure, which is what scripts test).
    expect(await sh('grep x src')).toEqual({ output: 'grep: src: Is a directory\n', exitCode: 1 })
    expect((await sh('grep "(" notes.md -E')).exitCode).toBe(2)
  })

  it('answers only with a status under -q', async () => {
    expect(await sh('grep -q beta notes.md && echo found')).toEqual({ output: 'found\n', exitCode: 0 })
  })

  it('feeds xargs', async () => {
    expect((await sh('grep -rl export src | xargs wc -l')).output).toBe('  3 src/a.ts\n  1 src/deep/c.tsx\n  4 total\n')
  })
})

// Where ours was right and just-bash 3.4.2 differs from GNU grep (BRE `\+`, several `-e`, `-r` without a path
// meaning `.`, the `./` prefix, binary files, `-s`): expected failures, so an upgrade that fixes one shows up.
describe('where just-bash grep differs from GNU', () => {
  for (const [command, expected] of [
      ['grep -o "[0-9]\\+" src/a.ts', '1\n2\n'],
      ['grep -e Alpha -e beta notes.md', 'Alpha\nbeta\n'],
      ['grep -rn TODO', 'Binary file image.bin matches\nnotes.md:3:TODO later\nsrc/a.ts:3:// TODO: fix\n'],
      ['grep -rn TODO .', 'Binary file ./image.bin matches\n./notes.md:3:TODO later\n./src/a.ts:3:// TODO: fix\n'],
      ['grep TODO image.bin', 'Binary file image.bin matches\n'],
  ]) {
    it.fails(`${command} gives what GNU gives`, async () => {
      expect(await sh(command!)).toEqual({ output: expected, exitCode: 0 })
    })
  }

  it.fails('grep -s hides the message and still exits 2', async () => {
    expect(await sh('grep -s x missing.txt')).toEqual({ output: '', exitCode: 2 })
  })
})
