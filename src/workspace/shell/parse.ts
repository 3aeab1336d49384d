import type { Command, CompoundCommand, Pipeline, Redirect, Script, SimpleCommand, Word } from './ast'
import { Lexer, type Token } from './lex'
import { ShellSyntaxError } from './syntax-error'

export { ShellSyntaxError } from './syntax-error'

/** Parses a command line; throws `ShellSyntaxError` with a bash-like message. */
export function parseScript(source: string): Script {
  return parseTokens(new Lexer(source, parseTokens).tokens())
}

function parseTokens(tokens: Token[]): Script {
  const parser = new Parser(tokens)
  const script = parser.list(new Set())
  parser.expectEnd()
  return script
}

const RESERVED = new Set([
  ...['if', 'then', 'elif', 'else', 'fi', 'for', 'in', 'while', 'until', 'do', 'done', '{', '}', '!'],
  ...['case', 'esac', 'function', 'select'],
])
const UNSUPPORTED = new Set(['case', 'function', 'select'])
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/

class Parser {
  private index = 0

  constructor(private readonly tokens: Token[]) {}

  /** Pipelines joined by `;`, `&`, newlines, `&&` and `||`, up to one of the `stops` (a reserved word or `)`). */
  list(stops: Set<string>): Script {
    const entries: Script['entries'] = []
    let connector: Script['entries'][number]['connector'] = ';'
    let needed = false
    this.skipNewlines()
    for (;;) {
      const token = this.peek()
      if (token.type === 'end' || this.isStop(token, stops)) {
        if (needed) throw this.unexpected(token)
        return { entries }
      }
      entries.push({ connector, pipeline: this.pipeline() })
      needed = false
      const after = this.peek()
      if (after.type !== 'operator' || after.value === '(' || after.value === ')' || after.value === '|' || after.value === '|&') {
        if (after.type === 'end' || this.isStop(after, stops)) return { entries }
        throw this.unexpected(after)
      }
      if (after.value === ';;') throw this.unexpected(after)
      this.index++
      if (after.value === '&&' || after.value === '||') {
        connector = after.value
        needed = true
      } else connector = ';'
      this.skipNewlines()
    }
  }

  expectEnd(): void {
    const token = this.peek()
    if (token.type !== 'end') throw this.unexpected(token)
  }

  private pipeline(): Pipeline {
    let negated = false
    if (this.reserved(this.peek()) === '!') {
      this.index++
      negated = true
    }
    const commands = [this.command()]
    for (;;) {
      const token = this.peek()
      if (token.type !== 'operator' || (token.value !== '|' && token.value !== '|&')) return { negated, commands }
      this.index++
      // `a |& b` is `a 2>&1 | b`.
      if (token.value === '|&') commands.at(-1)!.redirects.push({ type: 'duplicate', fd: 2, target: 1 })
      this.skipNewlines()
      commands.push(this.command())
    }
  }

  private command(): Command {
    const token = this.peek()
    if (token.type === 'operator' && token.value === '(') {
      this.index++
      const script = this.list(new Set([')']))
      if (script.entries.length === 0) throw this.unexpected(this.peek())
      this.expectOperator(')')
      return { type: 'subshell', script, redirects: this.redirects() }
    }
    const word = this.reserved(token)
    if (word === undefined) return this.simple()
    if (UNSUPPORTED.has(word)) throw new ShellSyntaxError(`\`${word}' is not supported by this shell`)
    if (word === 'if') return this.ifCommand()
    if (word === 'for') return this.forCommand()
    if (word === 'while' || word === 'until') return this.whileCommand(word === 'until')
    if (word === '{') {
      this.index++
      const script = this.body(new Set(['}']))
      this.expectReserved('}')
      return { type: 'group', script, redirects: this.redirects() }
    }
    throw this.unexpected(token)
  }

  private ifCommand(): CompoundCommand {
    this.index++
    const clauses: { condition: Script; body: Script }[] = []
    let otherwise: Script | undefined
    for (;;) {
      const condition = this.body(new Set(['then']))
      this.expectReserved('then')
      clauses.push({ condition, body: this.body(new Set(['elif', 'else', 'fi'])) })
      const next = this.reserved(this.peek())
      if (next !== 'elif' && next !== 'else' && next !== 'fi') throw this.unexpected(this.peek())
      this.index++
      if (next === 'elif') continue
      if (next === 'else') {
        otherwise = this.body(new Set(['fi']))
        this.expectReserved('fi')
      }
      return { type: 'if', clauses, otherwise, redirects: this.redirects() }
    }
  }

  private forCommand(): CompoundCommand {
    this.index++
    const nameToken = this.next()
    if (nameToken.type !== 'word' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(nameToken.raw)) {
      if (nameToken.type === 'operator' && nameToken.value === '(') throw new ShellSyntaxError('arithmetic for loops are not supported')
      throw this.unexpected(nameToken)
    }
    const items: Word[] = []
    this.skipNewlines()
    if (this.reserved(this.peek()) === 'in') {
      this.index++
      for (let token = this.peek(); token.type === 'word'; token = this.peek()) {
        items.push(token.word)
        this.index++
      }
    }
    const separator = this.peek()
    if (separator.type === 'operator' && (separator.value === ';' || separator.value === '\n')) this.index++
    this.skipNewlines()
    this.expectReserved('do')
    const body = this.body(new Set(['done']))
    this.expectReserved('done')
    return { type: 'for', name: nameToken.raw, items, body, redirects: this.redirects() }
  }

  private whileCommand(until: boolean): CompoundCommand {
    this.index++
    const condition = this.body(new Set(['do']))
    this.expectReserved('do')
    const body = this.body(new Set(['done']))
    this.expectReserved('done')
    return { type: 'while', until, condition, body, redirects: this.redirects() }
  }

  /** A list that must hold at least one command, as bash requires of `then`, `do` and `{` bodies. */
  private body(stops: Set<string>): Script {
    const script = this.list(stops)
    if (script.entries.length === 0) throw this.unexpected(this.peek())
    return script
  }

  private simple(): SimpleCommand {
    const command: SimpleCommand = { type: 'simple', assignments: [], words: [], redirects: [] }
    for (;;) {
      const token = this.peek()
      if (token.type === 'redirect') command.redirects.push(this.redirect())
      else if (token.type === 'word') {
        this.index++
        const assignment = command.words.length === 0 ? asAssignment(token.word) : undefined
        if (assignment) command.assignments.push(assignment)
        else command.words.push(token.word)
      } else break
    }
    if (command.words.length === 0 && command.assignments.length === 0 && command.redirects.length === 0) {
      throw this.unexpected(this.peek())
    }
    return command
  }

  private redirects(): Redirect[] {
    const redirects: Redirect[] = []
    while (this.peek().type === 'redirect') redirects.push(this.redirect())
    return redirects
  }

  private redirect(): Redirect {
    const token = this.next()
    if (token.type !== 'redirect') throw this.unexpected(token)
    const { fd, operator } = token
    if (token.heredoc) return { type: 'input', body: token.heredoc.body }
    const target = this.next()
    if (target.type === 'end') throw new ShellSyntaxError("syntax error near unexpected token `newline'")
    if (target.type !== 'word') throw this.unexpected(target)
    switch (operator) {
      case '>':
      case '>>':
        return { type: 'file', fd: fd ?? 1, operator, target: target.word }
      case '<':
        return { type: 'file', fd: fd ?? 0, operator, target: target.word }
      case '&>':
        return { type: 'file', fd: 1, operator: '>', target: target.word, both: true }
      case '&>>':
        return { type: 'file', fd: 1, operator: '>>', target: target.word, both: true }
      case '<<<':
        return { type: 'input', body: { parts: [...target.word.parts, { type: 'text', value: '\n', quoted: true }] } }
      default: {
        const fallback = operator === '>&' ? 1 : 0
        if (/^\d+$/.test(target.raw)) return { type: 'duplicate', fd: fd ?? fallback, target: Number(target.raw) }
        if (target.raw === '-') return { type: 'file', fd: fd ?? fallback, operator: '>', target: devNull }
        // `>& file` is `&> file`.
        if (operator === '>&' && fd === undefined) return { type: 'file', fd: 1, operator: '>', target: target.word, both: true }
        throw new ShellSyntaxError(`${target.raw}: ambiguous redirect`)
      }
    }
  }

  private isStop(token: Token, stops: Set<string>): boolean {
    if (token.type === 'operator') return token.value === ')' && stops.has(')')
    const word = this.reserved(token)
    return word !== undefined && stops.has(word)
  }

  private reserved(token: Token): string | undefined {
    if (token.type !== 'word' || token.word.parts.length !== 1) return undefined
    const part = token.word.parts[0]!
    return part.type === 'text' && !part.quoted && RESERVED.has(part.value) ? part.value : undefined
  }

  private expectReserved(word: string): void {
    const token = this.peek()
    if (this.reserved(token) !== word) throw this.unexpected(token)
    this.index++
  }

  private expectOperator(value: string): void {
    const token = this.peek()
    if (token.type !== 'operator' || token.value !== value) throw this.unexpected(token)
    this.index++
  }

  private skipNewlines(): void {
    for (let token = this.peek(); token.type === 'operator' && token.value === '\n'; token = this.peek()) this.index++
  }

  private peek(): Token {
    return this.tokens[this.index] ?? { type: 'end' }
  }

  private next(): Token {
    const token = this.peek()
    this.index++
    return token
  }

  private unexpected(token: Token): ShellSyntaxError {
    if (token.type === 'end') return new ShellSyntaxError('syntax error: unexpected end of file')
    const text =
      token.type === 'word'
        ? token.raw
        : token.type === 'operator'
          ? token.value === '\n'
            ? 'newline'
            : token.value
          : `${token.fd ?? ''}${token.operator}`
    return new ShellSyntaxError(`syntax error near unexpected token \`${text}'`)
  }
}

const devNull: Word = { parts: [{ type: 'text', value: '/dev/null', quoted: true }] }

function asAssignment(word: Word): { name: string; value: Word } | undefined {
  const first = word.parts[0]
  if (first?.type !== 'text' || first.quoted) return undefined
  const match = ASSIGNMENT.exec(first.value)
  if (!match) return undefined
  const rest = first.value.slice(match[0].length)
  const parts = [...(rest ? [{ ...first, value: rest }] : []), ...word.parts.slice(1)]
  return { name: match[1]!, value: { parts } }
}
