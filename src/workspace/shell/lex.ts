import type { Script, Word, WordPart } from './ast'
import { ShellSyntaxError } from './syntax-error'

export type Operator = '|' | '|&' | '||' | '&&' | ';' | ';;' | '&' | '(' | ')' | '\n'
export type RedirectOperator = '>' | '>>' | '<' | '>&' | '<&' | '&>' | '&>>' | '<<' | '<<-' | '<<<'

export type Token =
  | { type: 'word'; word: Word; raw: string }
  | { type: 'operator'; value: Operator }
  /** A here-document's body is filled in when the lexer reaches the end of its line. */
  | { type: 'redirect'; fd: number | undefined; operator: RedirectOperator; heredoc?: { body: Word } }
  | { type: 'end' }

/** Turns a command substitution's tokens into a script: the parser, passed in so the two files stay acyclic. */
export type ParseTokens = (tokens: Token[]) => Script

// Longest first, so `>>` wins over `>`.
const OPERATORS = ['&>>', '<<<', '<<-', '&>', '<<', '<&', '>>', '>&', '>|', '&&', '||', '|&', ';;', '>', '<', '|', '&', ';', '(', ')']
const REDIRECTS = new Set(['&>>', '<<<', '<<-', '&>', '<<', '<&', '>>', '>&', '>|', '>', '<'])
const WORD_END = new Set([' ', '\t', '\n', '|', '&', ';', '(', ')', '<', '>'])
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/
const SPECIAL_VARIABLES = new Set(['?', '$', '#', '@', '*', '!', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
// Inside double quotes a backslash escapes only these (and `"`); elsewhere it stays a backslash.
const ANSI_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
  '0': '\0',
}
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '\\'])

interface PendingHeredoc {
  delimiter: string
  quoted: boolean
  stripTabs: boolean
  target: { body: Word }
}

/** Splits a command line into words (with their quoting kept), operators and redirections. */
export class Lexer {
  private pending: PendingHeredoc[] = []

  constructor(
    private readonly source: string,
    private readonly parse: ParseTokens,
    public position = 0,
  ) {}

  /** Every token to the end of the source. */
  tokens(): Token[] {
    const tokens: Token[] = []
    for (;;) {
      const token = this.next()
      tokens.push(token)
      if (token.type === 'end') return tokens
    }
  }

  /** The tokens of `$(...)` up to its closing parenthesis, which is consumed. */
  substitution(): Token[] {
    const tokens: Token[] = []
    let depth = 0
    for (;;) {
      const token = this.next()
      if (token.type === 'end') throw new ShellSyntaxError("unexpected EOF while looking for matching `)'")
      if (token.type === 'operator' && token.value === '(') depth++
      if (token.type === 'operator' && token.value === ')') {
        if (depth === 0) {
          tokens.push({ type: 'end' })
          return tokens
        }
        depth--
      }
      tokens.push(token)
    }
  }

  private next(): Token {
    this.skipBlanks()
    const char = this.source[this.position]
    if (char === undefined) {
      this.readHeredocs()
      return { type: 'end' }
    }
    if (char === '#') {
      while (this.position < this.source.length && this.source[this.position] !== '\n') this.position++
      return this.next()
    }
    if (char === '\n') {
      this.position++
      this.readHeredocs()
      return { type: 'operator', value: '\n' }
    }
    const fd = /^\d+(?=[<>])/.exec(this.source.slice(this.position, this.position + 12))
    if (fd) {
      this.position += fd[0].length
      return this.redirect(Number(fd[0]))
    }
    const operator = OPERATORS.find((candidate) => this.source.startsWith(candidate, this.position))
    if (operator && REDIRECTS.has(operator)) return this.redirect(undefined)
    if (operator) {
      this.position += operator.length
      return { type: 'operator', value: operator as Operator }
    }
    const start = this.position
    const word = this.word()
    return { type: 'word', word, raw: this.source.slice(start, this.position) }
  }

  private redirect(fd: number | undefined): Token {
    const operator = OPERATORS.find((candidate) => REDIRECTS.has(candidate) && this.source.startsWith(candidate, this.position))!
    this.position += operator.length
    const normalized = (operator === '>|' ? '>' : operator) as RedirectOperator
    if (normalized !== '<<' && normalized !== '<<-') return { type: 'redirect', fd, operator: normalized }
    this.skipBlanks()
    const delimiter = this.word()
    if (delimiter.parts.length === 0) throw new ShellSyntaxError("syntax error near unexpected token `newline'")
    const target = { body: { parts: [] } as Word }
    this.pending.push({
      delimiter: delimiter.parts.map((part) => (part.type === 'text' ? part.value : '')).join(''),
      quoted: delimiter.parts.some((part) => part.quoted),
      stripTabs: normalized === '<<-',
      target,
    })
    return { type: 'redirect', fd, operator: normalized, heredoc: target }
  }

  /** At the end of a line, the bodies of the here-documents it opened follow, each up to its delimiter line. */
  private readHeredocs(): void {
    for (const heredoc of this.pending) {
      let body = ''
      while (this.position < this.source.length) {
        const end = this.source.indexOf('\n', this.position)
        const line = this.source.slice(this.position, end === -1 ? undefined : end)
        this.position = end === -1 ? this.source.length : end + 1
        const text = heredoc.stripTabs ? line.replace(/^\t+/, '') : line
        if (text === heredoc.delimiter) break
        body += `${text}\n`
      }
      heredoc.target.body = heredoc.quoted
        ? { parts: [{ type: 'text', value: body, quoted: true }] }
        : new Lexer(body, this.parse).quotedContent(null)
    }
    this.pending = []
  }

  private skipBlanks(): void {
    for (;;) {
      const char = this.source[this.position]
      if (char === ' ' || char === '\t') this.position++
      else if (char === '\\' && this.source[this.position + 1] === '\n') this.position += 2
      else return
    }
  }

  /** One word, up to an unquoted blank or operator. */
  word(): Word {
    const parts: WordPart[] = []
    for (;;) {
      const char = this.source[this.position]
      if (char === undefined || WORD_END.has(char)) return { parts }
      if (char === '\\') {
        const next = this.source[this.position + 1]
        this.position += 2
        if (next === undefined) appendText(parts, '\\', false)
        else if (next !== '\n') appendText(parts, next, true)
      } else if (char === "'") {
        const end = this.source.indexOf("'", this.position + 1)
        if (end === -1) throw new ShellSyntaxError("unexpected EOF while looking for matching `''")
        appendText(parts, this.source.slice(this.position + 1, end), true)
        this.position = end + 1
      } else if (char === '"') {
        this.position++
        parts.push(...this.quotedContent('"').parts)
      } else if (char === '$') {
        this.dollar(parts, false)
      } else if (char === '`') {
        this.backtick(parts, false)
      } else if (char === '~' && parts.length === 0 && isTildeEnd(this.source[this.position + 1])) {
        parts.push({ type: 'variable', name: 'HOME', quoted: true })
        this.position++
      } else {
        appendText(parts, char, false)
        this.position++
      }
    }
  }

  /**
   * The inside of double quotes, up to the closing quote (which is consumed), or of a here-document body
   * (`terminator` null: to the end, and `"` is an ordinary character).
   */
  quotedContent(terminator: '"' | null): Word {
    // An empty pair of quotes is still an argument.
    const parts: WordPart[] = [{ type: 'text', value: '', quoted: true }]
    for (;;) {
      const char = this.source[this.position]
      if (char === undefined) {
        if (terminator) throw new ShellSyntaxError('unexpected EOF while looking for matching `"\'')
        return { parts }
      }
      if (char === terminator) {
        this.position++
        return { parts }
      }
      if (char === '\\') {
        const next = this.source[this.position + 1]
        if (next === '\n') this.position += 2
        else if (next !== undefined && (DOUBLE_QUOTE_ESCAPES.has(next) || (next === '"' && terminator))) {
          appendText(parts, next, true)
          this.position += 2
        } else {
          appendText(parts, '\\', true)
          this.position++
        }
      } else if (char === '$') this.dollar(parts, true)
      else if (char === '`') this.backtick(parts, true)
      else {
        appendText(parts, char, true)
        this.position++
      }
    }
  }

  private dollar(parts: WordPart[], quoted: boolean): void {
    const next = this.source[this.position + 1]
    if (next === '(' && this.source[this.position + 2] === '(') {
      const end = arithmeticEnd(this.source, this.position + 3)
      const inner = this.source.slice(this.position + 3, end)
      parts.push({ type: 'arithmetic', expression: new Lexer(inner, this.parse).quotedContent(null), quoted: true })
      this.position = end + 2
    } else if (next === '(') {
      this.position += 2
      const tokens = new Lexer(this.source, this.parse, this.position)
      const script = this.parse(tokens.substitution())
      this.position = tokens.position
      parts.push({ type: 'command', script, quoted })
    } else if (next === '{') {
      const end = braceEnd(this.source, this.position + 2)
      const inside = this.source.slice(this.position + 2, end)
      parts.push(parameter(inside, quoted, this.parse))
      this.position = end + 1
    } else if (next === "'" && !quoted) {
      this.position += 2
      appendText(parts, this.ansiString(), true)
    } else if (next !== undefined && NAME.test(next)) {
      const name = NAME.exec(this.source.slice(this.position + 1))![0]
      parts.push({ type: 'variable', name, quoted })
      this.position += 1 + name.length
    } else if (next !== undefined && SPECIAL_VARIABLES.has(next)) {
      parts.push({ type: 'variable', name: next, quoted })
      this.position += 2
    } else {
      appendText(parts, '$', quoted)
      this.position++
    }
  }

  private backtick(parts: WordPart[], quoted: boolean): void {
    let inner = ''
    let index = this.position + 1
    for (;;) {
      const char = this.source[index]
      if (char === undefined) throw new ShellSyntaxError('unexpected EOF while looking for matching ``\'')
      if (char === '`') break
      if (char === '\\' && ['`', '\\', '$'].includes(this.source[index + 1] ?? '')) {
        inner += this.source[index + 1]
        index += 2
      } else {
        inner += char
        index++
      }
    }
    this.position = index + 1
    parts.push({ type: 'command', script: this.parse(new Lexer(inner, this.parse).tokens()), quoted })
  }

  /** `$'...'`: C escapes, as bash reads them. */
  private ansiString(): string {
    let value = ''
    for (;;) {
      const char = this.source[this.position]
      if (char === undefined) throw new ShellSyntaxError("unexpected EOF while looking for matching `''")
      this.position++
      if (char === "'") return value
      if (char !== '\\') {
        value += char
        continue
      }
      const next = this.source[this.position] ?? ''
      this.position++
      value += ANSI_ESCAPES[next] ?? `\\${next}`
    }
  }
}

/** Where the `))` closing `$((` is, counting the parentheses in between. */
function arithmeticEnd(source: string, start: number): number {
  let depth = 0
  for (let index = start; index < source.length; index++) {
    const char = source[index]
    if (char === '(') depth++
    else if (char === ')') {
      if (depth === 0 && source[index + 1] === ')') return index
      depth = Math.max(0, depth - 1)
    }
  }
  throw new ShellSyntaxError("unexpected EOF while looking for matching `))'")
}

function appendText(parts: WordPart[], value: string, quoted: boolean): void {
  const last = parts.at(-1)
  if (last?.type === 'text' && last.quoted === quoted) last.value += value
  else parts.push({ type: 'text', value, quoted })
}

function isTildeEnd(char: string | undefined): boolean {
  return char === undefined || char === '/' || WORD_END.has(char)
}

/** Where the `}` closing `${` is: nested braces and quoted text do not count. */
function braceEnd(source: string, start: number): number {
  let depth = 0
  for (let index = start; index < source.length; index++) {
    const char = source[index]
    if (char === '\\') index++
    else if (char === "'") {
      const close = source.indexOf("'", index + 1)
      if (close === -1) break
      index = close
    } else if (char === '{') depth++
    else if (char === '}') {
      if (depth === 0) return index
      depth--
    }
  }
  throw new ShellSyntaxError("unexpected EOF while looking for matching `}'")
}

/** The inside of `${…}`: a name and an optional modifier. */
function parameter(inside: string, quoted: boolean, parse: ParseTokens): WordPart {
  const bad = () => new ShellSyntaxError(`\${${inside}}: bad substitution`)
  const length = /^#([A-Za-z_][A-Za-z0-9_]*|[?$#@*!0-9])$/.exec(inside)
  if (length) return { type: 'variable', name: length[1]!, modifier: { type: 'length' }, quoted }
  const match = /^([A-Za-z_][A-Za-z0-9_]*|[?$#@*!0-9])(.*)$/s.exec(inside)
  if (!match) throw bad()
  const name = match[1]!
  const rest = match[2]!
  const word = (text: string) => operandWord(text, quoted, parse)
  if (rest === '') return { type: 'variable', name, quoted }
  const fallback = /^(:?)([-=+?])(.*)$/s.exec(rest)
  if (fallback) {
    const colon = fallback[1] === ':'
    const operand = word(fallback[3]!)
    if (fallback[2] === '+') return { type: 'variable', name, quoted, modifier: { type: 'alternative', word: operand, colon } }
    if (fallback[2] === '?') throw new ShellSyntaxError(`\${${inside}}: the ? modifier is not supported`)
    return { type: 'variable', name, quoted, modifier: { type: 'default', word: operand, colon, assign: fallback[2] === '=' } }
  }
  const trim = /^(##?|%%?)(.*)$/s.exec(rest)
  if (trim) {
    const modifier = { type: 'trim', from: trim[1]![0] === '#' ? 'start' : 'end', longest: trim[1]!.length === 2, pattern: word(trim[2]!) } as const
    return { type: 'variable', name, quoted, modifier }
  }
  const replace = /^\/(\/?)((?:\\.|[^/])*)(?:\/(.*))?$/s.exec(rest)
  if (replace) {
    const modifier = { type: 'replace', all: replace[1] === '/', pattern: word(replace[2]!), replacement: word(replace[3] ?? '') } as const
    return { type: 'variable', name, quoted, modifier }
  }
  const substring = /^:\s*(\d+)(?::(\d+))?$/.exec(rest)
  if (substring) {
    const length = substring[2] === undefined ? undefined : Number(substring[2])
    const modifier = { type: 'substring', offset: Number(substring[1]), length } as const
    return { type: 'variable', name, quoted, modifier }
  }
  throw bad()
}

/** The word inside a modifier (`${NAME:-word}`): quoted like the expansion around it. */
function operandWord(text: string, quoted: boolean, parse: ParseTokens): Word {
  if (quoted) return new Lexer(text, parse).quotedContent(null)
  const lexer = new Lexer(text, parse)
  const parts: WordPart[] = []
  while (lexer.position < text.length) {
    parts.push(...lexer.word().parts)
    // Blanks inside the braces belong to the word.
    if (lexer.position < text.length) {
      appendText(parts, text[lexer.position]!, false)
      lexer.position++
    }
  }
  return { parts }
}
