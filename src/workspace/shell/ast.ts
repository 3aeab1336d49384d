/** The syntax tree of a command line, as `parse` builds it and `run` executes it. */

export type WordPart =
  /** `quoted` text is never split or globbed: it came from quotes or a backslash escape. */
  | { type: 'text'; value: string; quoted: boolean }
  /** `$NAME`, `${NAME}`, or `${NAME…}` with one of bash's modifiers. */
  | { type: 'variable'; name: string; modifier?: VariableModifier; quoted: boolean }
  /** `$(...)` or backticks: replaced by the command's output without trailing newlines. */
  | { type: 'command'; script: Script; quoted: boolean }
  /** `$((...))`: the expression is expanded like a double-quoted string, then evaluated. */
  | { type: 'arithmetic'; expression: Word; quoted: boolean }

export type VariableModifier =
  /** `${#NAME}` */
  | { type: 'length' }
  /** `${NAME:-word}` / `${NAME-word}`; `assign` for `:=`/`=`. `colon`: an empty value counts as unset. */
  | { type: 'default'; word: Word; colon: boolean; assign: boolean }
  /** `${NAME:+word}` / `${NAME+word}` */
  | { type: 'alternative'; word: Word; colon: boolean }
  /** `${NAME#pattern}`, `##` (longest), `%`, `%%`. */
  | { type: 'trim'; from: 'start' | 'end'; longest: boolean; pattern: Word }
  /** `${NAME/pattern/replacement}`, `//` for every match. */
  | { type: 'replace'; all: boolean; pattern: Word; replacement: Word }
  /** `${NAME:offset}`, `${NAME:offset:length}` */
  | { type: 'substring'; offset: number; length?: number }

export interface Word {
  parts: WordPart[]
}

export type Redirect =
  /** `n> file`, `n>> file`, `n< file`; `&>` is a file redirect of both 1 and 2. */
  | { type: 'file'; fd: number; operator: '>' | '>>' | '<'; target: Word; both?: boolean }
  /** `n>&m`: fd n goes where m goes now. */
  | { type: 'duplicate'; fd: number; target: number }
  /** `<<EOF` (the body is expanded unless the delimiter was quoted) and `<<<word` (a line of input). */
  | { type: 'input'; body: Word }

export interface SimpleCommand {
  type: 'simple'
  assignments: { name: string; value: Word }[]
  words: Word[]
  redirects: Redirect[]
}

export type CompoundBody =
  | { type: 'subshell'; script: Script }
  | { type: 'group'; script: Script }
  | { type: 'if'; clauses: { condition: Script; body: Script }[]; otherwise?: Script }
  | { type: 'for'; name: string; items: Word[]; body: Script }
  | { type: 'while'; until: boolean; condition: Script; body: Script }

export type CompoundCommand = CompoundBody & { redirects: Redirect[] }

export type Command = SimpleCommand | CompoundCommand

export interface Pipeline {
  negated: boolean
  commands: Command[]
}

/** A list: each pipeline runs always (`;`, newline, `&`), after success (`&&`) or after failure (`||`) of the last. */
export interface Script {
  entries: { connector: ';' | '&&' | '||'; pipeline: Pipeline }[]
}
