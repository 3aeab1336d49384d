import { describe, expect, it } from 'vitest'
import { parseNodeCommand } from './command-line'

const parse = (...argv: string[]) => parseNodeCommand(argv, '/workspace/src', 'piped')

describe("node's command line", () => {
  it('takes the script relative to the cwd, with everything after it as its arguments', () => {
    expect(parse('--no-warnings', '../main.js', '-e', '--flag')).toEqual({
      kind: 'run',
      entry: { kind: 'file', path: '/workspace/main.js' },
      args: ['-e', '--flag'],
    })
    expect(parse('--', '-weird.js')).toMatchObject({ entry: { kind: 'file', path: '/workspace/src/-weird.js' } })
  })

  it('reads -e, --eval=, -p, -pe and --input-type for source given inline', () => {
    expect(parse('-e', 'code', 'a')).toEqual({ kind: 'run', entry: { kind: 'source', code: 'code', name: '[eval]', print: false, module: undefined }, args: ['a'] })
    expect(parse('--eval=x')).toMatchObject({ entry: { code: 'x', print: false } })
    expect(parse('-p', '1 + 1')).toMatchObject({ entry: { code: '1 + 1', print: true } })
    expect(parse('-pe', '2')).toMatchObject({ entry: { code: '2', print: true } })
    expect(parse('--input-type=module', '-e', 'x')).toMatchObject({ entry: { module: true } })
  })

  it('reads the script from stdin with no script or with -', () => {
    expect(parse()).toMatchObject({ entry: { kind: 'source', code: 'piped', name: '[stdin]' }, args: [] })
    expect(parse('-', 'a')).toMatchObject({ entry: { kind: 'source', code: 'piped', name: '[stdin]' }, args: ['a'] })
  })

  it('answers --version and --help, and refuses what it cannot do', () => {
    expect(parse('-v')).toEqual({ kind: 'version' })
    expect(parse('--help')).toEqual({ kind: 'help' })
    expect(parse('-e')).toMatchObject({ kind: 'error', exitCode: 9 })
    expect(parse('-r', 'dotenv/config', 'x.js')).toMatchObject({ kind: 'error', message: expect.stringContaining('preloads modules') })
    expect(parse('--frobnicate')).toEqual({ kind: 'error', message: 'node: bad option: --frobnicate\n', exitCode: 9 })
  })

  it("reads --test with the files or folders after it, and --conditions for a package's exports", () => {
    expect(parse('--test')).toEqual({ kind: 'run', entry: { kind: 'tests', paths: [], conditions: [] }, args: [] })
    expect(parse('--test', 'test/', 'a.test.js')).toMatchObject({ entry: { kind: 'tests', paths: ['test/', 'a.test.js'] } })
    expect(parse('--conditions=development', '-C', 'custom', 'main.js')).toMatchObject({
      entry: { kind: 'file', path: '/workspace/src/main.js', conditions: ['development', 'custom'] },
    })
    expect(parse('-C')).toMatchObject({ kind: 'error', exitCode: 9 })
  })
})
