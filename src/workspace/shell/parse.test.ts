import { describe, expect, it } from 'vitest'
import type { Command, Script, Word } from './ast'
import { parseScript, ShellSyntaxError } from './parse'

/** A word as text, marking quoted text with «» and expansions with their source form, to keep expectations short. */
function show(word: Word): string {
  return word.parts
    .map((part) => {
      if (part.type === 'text') return part.quoted ? `«${part.value}»` : part.value
      if (part.type === 'variable') return `\${${part.name}}`
      if (part.type === 'arithmetic') return `$((${show(part.expression)}))`
      return '$(…)'
    })
    .join('')
}

function simple(script: Script, index = 0): Extract<Command, { type: 'simple' }> {
  const command = script.entries[index]!.pipeline.commands[0]!
  if (command.type !== 'simple') throw new Error(`expected a simple command, got ${command.type}`)
  return command
}

function words(source: string): string[] {
  return simple(parseScript(source)).words.map(show)
}

function syntaxError(source: string): string {
  try {
    parseScript(source)
  } catch (error) {
    if (error instanceof ShellSyntaxError) return error.message
    throw error
  }
  throw new Error(`expected a syntax error for ${source}`)
}

describe('parseScript', () => {
  it('splits words on blanks and keeps quoting', () => {
    expect(words(`echo a  "b c" 'd $e' f\\ g`)).toEqual(['echo', 'a', '«b c»', '«d $e»', 'f« »g'])
    expect(words(`echo ""`)).toEqual(['echo', '«»'])
    expect(words(`echo "a\\"b" 'it'"'"'s'`)).toEqual(['echo', '«a"b»', "«it»«'s»"])
  })

  it('reads variables, substitutions and arithmetic', () => {
    expect(words('echo $HOME ${PWD}/x "$A-b" $? $1')).toEqual(['echo', '${HOME}', '${PWD}/x', '«»${A}«-b»', '${?}', '${1}'])
    expect(words('echo $(ls) `pwd` $((1 + $X))')).toEqual(['echo', '$(…)', '$(…)', '$((«1 + »${X}))'])
    expect(words('echo $ "$"')).toEqual(['echo', '$', '«$»'])
    expect(words('echo ~ ~/src a~')).toEqual(['echo', '${HOME}', '${HOME}/src', 'a~'])
  })

  it('builds lists with their connectors and pipelines', () => {
    const script = parseScript('a | b && c || d; e\nf')
    expect(script.entries.map((entry) => [entry.connector, entry.pipeline.commands.length])).toEqual([
      [';', 2],
      ['&&', 1],
      ['||', 1],
      [';', 1],
      [';', 1],
    ])
    expect(parseScript('! false').entries[0]!.pipeline.negated).toBe(true)
  })

  it('reads redirections in order, with file descriptors', () => {
    const command = simple(parseScript('cmd > out.txt 2>&1 < in.txt 2>>log >&2'))
    expect(command.redirects).toEqual([
      { type: 'file', fd: 1, operator: '>', target: { parts: [{ type: 'text', value: 'out.txt', quoted: false }] } },
      { type: 'duplicate', fd: 2, target: 1 },
      { type: 'file', fd: 0, operator: '<', target: { parts: [{ type: 'text', value: 'in.txt', quoted: false }] } },
      { type: 'file', fd: 2, operator: '>>', target: { parts: [{ type: 'text', value: 'log', quoted: false }] } },
      { type: 'duplicate', fd: 1, target: 2 },
    ])
    expect(simple(parseScript('cmd &> all')).redirects[0]).toMatchObject({ type: 'file', fd: 1, both: true })
  })

  it('reads here-documents, expanding unless the delimiter is quoted', () => {
    const expanded = simple(parseScript('cat <<EOF\nhello $USER\nEOF\necho after'))
    expect(expanded.redirects[0]).toMatchObject({ type: 'input' })
    const body = expanded.redirects[0]!.type === 'input' ? expanded.redirects[0]!.body : undefined
    expect(show(body!)).toBe('«hello »${USER}«\n»')
    const literal = simple(parseScript("cat <<'EOF'\nhello $USER\nEOF"))
    expect(literal.redirects[0]!.type === 'input' && show(literal.redirects[0]!.body)).toBe('«hello $USER\n»')
    expect(parseScript('cat <<EOF\nx\nEOF\necho after').entries).toHaveLength(2)
  })

  it('separates assignments from the command', () => {
    const command = simple(parseScript('A=1 B="x y" env'))
    expect(command.assignments.map((assignment) => [assignment.name, show(assignment.value)])).toEqual([
      ['A', '1'],
      ['B', '«x y»'],
    ])
    expect(command.words.map(show)).toEqual(['env'])
    expect(simple(parseScript('echo A=1')).assignments).toEqual([])
  })

  it('reads compound commands', () => {
    const [loop] = parseScript('for f in a b; do echo $f; done').entries
    expect(loop!.pipeline.commands[0]).toMatchObject({ type: 'for', name: 'f' })
    const [branch] = parseScript('if true; then echo y; elif false; then :; else echo n; fi').entries
    expect(branch!.pipeline.commands[0]).toMatchObject({ type: 'if', clauses: [{}, {}] })
    expect(parseScript('while read l; do echo $l; done < f').entries[0]!.pipeline.commands[0]).toMatchObject({
      type: 'while',
      redirects: [{ type: 'file', operator: '<' }],
    })
    expect(parseScript('(cd src; ls)').entries[0]!.pipeline.commands[0]!.type).toBe('subshell')
    expect(parseScript('{ echo a; echo b; } > f').entries[0]!.pipeline.commands[0]!.type).toBe('group')
    // Reserved words are only reserved where a command starts.
    expect(words('echo done if then')).toEqual(['echo', 'done', 'if', 'then'])
  })

  it('skips comments and joins continued lines', () => {
    expect(words('echo a # not this')).toEqual(['echo', 'a'])
    expect(words('echo a\\\n b')).toEqual(['echo', 'a', 'b'])
    expect(words('echo a#b')).toEqual(['echo', 'a#b'])
  })

  it('reports syntax errors the way bash words them', () => {
    expect(syntaxError('echo a | | b')).toBe("syntax error near unexpected token `|'")
    expect(syntaxError('&& echo')).toBe("syntax error near unexpected token `&&'")
    expect(syntaxError('echo >')).toBe("syntax error near unexpected token `newline'")
    expect(syntaxError('echo "open')).toBe('unexpected EOF while looking for matching `"\'')
    expect(syntaxError("echo 'open")).toBe("unexpected EOF while looking for matching `''")
    expect(syntaxError('echo a &&')).toBe('syntax error: unexpected end of file')
    expect(syntaxError('if true; then echo')).toBe('syntax error: unexpected end of file')
    expect(syntaxError('echo )')).toBe("syntax error near unexpected token `)'")
    expect(syntaxError('done')).toBe("syntax error near unexpected token `done'")
  })
})
