import { describe, expect, it } from 'vitest'
import { evaluateArithmetic } from './arithmetic'
import { expandBraces, expandWords, type Expander } from './expand'
import { expandGlob } from './glob-expand'
import { createMemoryWorkspace } from '../local/memory-workspace'
import { parseScript } from './parse'

function wordsOf(source: string) {
  const command = parseScript(source).entries[0]!.pipeline.commands[0]!
  if (command.type !== 'simple') throw new Error('expected a simple command')
  return command.words
}

function expander(variables: Record<string, string>, globs: Record<string, string[]> = {}): Expander {
  return {
    variable: (name) => variables[name],
    substitute: async () => 'from a command\n\n',
    glob: async (pattern) => globs[pattern] ?? [],
    assign: (name, value) => {
      variables[name] = value
    },
  }
}

describe('expandWords', () => {
  it('splits unquoted expansions and drops empty ones, but keeps quoted ones whole', async () => {
    const variables = { SPACED: ' a  b ', EMPTY: '' }
    expect(await expandWords(wordsOf('x $SPACED "$SPACED" $EMPTY "$EMPTY" x$SPACED.y'), expander(variables))).toEqual([
      'x',
      'a',
      'b',
      ' a  b ',
      '',
      'x',
      'a',
      'b',
      '.y',
    ])
  })

  it('replaces a substitution by its output without trailing newlines', async () => {
    expect(await expandWords(wordsOf('"$(cmd)"'), expander({}))).toEqual(['from a command'])
  })

  it('uses a fallback for unset or empty variables', async () => {
    expect(await expandWords(wordsOf('${NONE:-fallback} ${SET:-x}'), expander({ SET: 'set' }))).toEqual(['fallback', 'set'])
  })

  it('expands globs only where unquoted, and keeps a pattern without matches', async () => {
    const globs = { '*.ts': ['a.ts', 'b.ts'], '\\*.md': ['never'] }
    expect(await expandWords(wordsOf('*.ts "*.md" *.none'), expander({}, globs))).toEqual(['a.ts', 'b.ts', '*.md', '*.none'])
  })

  it('expands braces before anything else', async () => {
    expect(expandBraces(wordsOf('src/{a,b}.ts')[0]!).length).toBe(2)
    expect(await expandWords(wordsOf('{a,b}{1..3} "{x,y}" {single}'), expander({}))).toEqual([
      'a1',
      'a2',
      'a3',
      'b1',
      'b2',
      'b3',
      '{x,y}',
      '{single}',
    ])
  })
})

describe('expandGlob', () => {
  const fs = createMemoryWorkspace({
    'src/a.ts': '',
    'src/b.tsx': '',
    'src/deep/c.ts': '',
    'src/.hidden.ts': '',
    'README.md': '',
  })

  it('matches one segment at a time, relative to the working directory', async () => {
    expect(await expandGlob('src/*.ts', '/workspace', fs)).toEqual(['src/a.ts'])
    expect(await expandGlob('*.ts*', '/workspace/src', fs)).toEqual(['a.ts', 'b.tsx'])
    expect(await expandGlob('/workspace/*.md', '/', fs)).toEqual(['/workspace/README.md'])
    expect(await expandGlob('*/', '/workspace', fs)).toEqual(['src/'])
  })

  it('lets ** cross directories and hides dot files unless the pattern names them', async () => {
    expect(await expandGlob('src/**/*.ts', '/workspace', fs)).toEqual(['src/a.ts', 'src/deep/c.ts'])
    expect(await expandGlob('src/.*.ts', '/workspace', fs)).toEqual(['src/.hidden.ts'])
    expect(await expandGlob('src/\\*.ts', '/workspace', fs)).toEqual([])
  })
})

describe('evaluateArithmetic', () => {
  it('follows C precedence with integer division', () => {
    const variable = (name: string) => ({ X: '4', Y: '' })[name]
    expect(evaluateArithmetic('1 + 2 * 3', variable)).toBe(7)
    expect(evaluateArithmetic('(1 + 2) * 3', variable)).toBe(9)
    expect(evaluateArithmetic('7 / 2 + 7 % 2', variable)).toBe(4)
    expect(evaluateArithmetic('X * 2 + Y', variable)).toBe(8)
    expect(evaluateArithmetic('2 ** 3 ** 2', variable)).toBe(512)
    expect(evaluateArithmetic('X > 3 && X < 5 ? 1 : 0', variable)).toBe(1)
    expect(evaluateArithmetic('-X + 0x10', variable)).toBe(12)
  })

  it('rejects division by zero and assignments', () => {
    expect(() => evaluateArithmetic('1 / 0', () => undefined)).toThrow('division by 0')
    expect(() => evaluateArithmetic('i++', () => undefined)).toThrow('assignments are not supported')
  })
})
