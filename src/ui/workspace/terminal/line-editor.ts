/**
 * The terminal's prompt line: what the user types before Enter, edited in the page (the shell runs whole command
 * lines, not keystrokes). Pure: each key gives the next state, the bytes that redraw the line in the terminal, and
 * what the terminal should do (run, interrupt, clear). Characters are taken as one column wide each.
 */
export interface LineState {
  /** Code points, so the cursor never splits a surrogate pair. */
  text: readonly string[]
  cursor: number
  /** Oldest first; kept for the terminal's life. */
  history: readonly string[]
  /** Which history entry shows; `history.length` is the line being typed. */
  index: number
  /** The line being typed, kept while ↑ shows older ones. */
  draft: readonly string[]
}

export type LineAction = { type: 'run'; command: string } | { type: 'interrupt' } | { type: 'clear' }

export interface KeyResult {
  state: LineState
  /** What to write to the terminal (the redraw, or the end of the line). */
  echo: string
  action?: LineAction
}

/** Where the line sits: after a prompt of this many columns, in a terminal this many columns wide. */
export interface LineLayout {
  promptWidth: number
  cols: number
}

export const emptyLine = (history: readonly string[] = []): LineState => ({ text: [], cursor: 0, history, index: history.length, draft: [] })

/**
 * One key of terminal input, as the terminal's control-sequence grammar shapes it. Every control sequence and control string is taken whole, so none
 * leaves a byte behind as text: a CSI with its parameters, intermediates and final byte (the 7-bit and the 8-bit
 * introducer), the X10 mouse report (CSI M and three raw bytes), SS3 and one character, the strings (DCS, OSC, SOS,
 * PM, APC) up to their terminator or the end of the data, ESC with one character (Alt+key), a lone control
 * character (C0, DEL, C1), CR LF, and a run of text.
 */
const KEY = new RegExp(
  [
    String.raw`\x1b\[M[\s\S]{3}`,
    String.raw`(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]`,
    String.raw`\x1bO[\x20-\x7e]`,
    String.raw`(?:\x1b[P\]X^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x1b\\|\x07|\x9c|$)`,
    String.raw`\x1b[\s\S]?`,
    String.raw`\r\n`,
    String.raw`[\x00-\x1f\x7f-\x9f]`,
    String.raw`[^\x00-\x1f\x7f-\x9f]+`,
  ].join('|'),
  'g',
)

/**
 * Splits terminal input (a key, or a whole paste) into keys: control sequences and strings, control characters, text
 * runs. Only text runs can ever become part of the line; any sequence the editor does not know is dropped whole.
 */
export function keysOf(data: string): string[] {
  return data.match(KEY) ?? []
}

const HOME = new Set(['\x1b[H', '\x1bOH', '\x1b[1~', '\x1b[7~', '\x01'])
const END = new Set(['\x1b[F', '\x1bOF', '\x1b[4~', '\x1b[8~', '\x05'])

export function applyKey(state: LineState, key: string, layout: LineLayout): KeyResult {
  const move = (next: Partial<LineState>): KeyResult => {
    const updated = { ...state, ...next }
    return { state: updated, echo: redraw(state, updated, layout) }
  }
  const at = state.cursor
  switch (key) {
    case '\r':
    case '\n':
    case '\r\n': {
      const command = state.text.join('')
      const history = command.trim() && state.history.at(-1) !== command ? [...state.history, command] : state.history
      // The cursor goes past the line's end first, so the output starts below all of it.
      return { state: emptyLine(history), echo: `${travel(at, state.text.length, layout)}\r\n`, action: { type: 'run', command } }
    }
    case '\x03':
      return { state: emptyLine(state.history), echo: `${travel(at, state.text.length, layout)}^C\r\n`, action: { type: 'interrupt' } }
    case '\x0c':
      return { state, echo: '', action: { type: 'clear' } }
    case '\x7f':
    case '\b':
      return at === 0 ? unchanged(state) : move({ text: [...state.text.slice(0, at - 1), ...state.text.slice(at)], cursor: at - 1 })
    case '\x1b[3~':
      return at === state.text.length ? unchanged(state) : move({ text: [...state.text.slice(0, at), ...state.text.slice(at + 1)] })
    case '\x1b[D':
    case '\x1bOD':
    case '\x02':
      return move({ cursor: Math.max(0, at - 1) })
    case '\x1b[C':
    case '\x1bOC':
    case '\x06':
      return move({ cursor: Math.min(state.text.length, at + 1) })
    case '\x15':
      return move({ text: state.text.slice(at), cursor: 0 })
    case '\x0b':
      return move({ text: state.text.slice(0, at) })
    case '\x1b[A':
    case '\x1bOA': {
      if (state.index === 0) return unchanged(state)
      const index = state.index - 1
      const text = [...state.history[index]!]
      return move({ index, text, cursor: text.length, draft: state.index === state.history.length ? state.text : state.draft })
    }
    case '\x1b[B':
    case '\x1bOB': {
      if (state.index === state.history.length) return unchanged(state)
      const index = state.index + 1
      const text = index === state.history.length ? state.draft : [...state.history[index]!]
      return move({ index, text, cursor: text.length })
    }
  }
  if (HOME.has(key)) return move({ cursor: 0 })
  if (END.has(key)) return move({ cursor: state.text.length })
  // Other control keys and sequences (Tab: there is no completion; function keys) do nothing here.
  if (/^[\x00-\x1f\x7f-\x9f]/.test(key)) return unchanged(state)
  const typed = [...key]
  return move({ text: [...state.text.slice(0, at), ...typed, ...state.text.slice(at)], cursor: at + typed.length })
}

const unchanged = (state: LineState): KeyResult => ({ state, echo: '' })

/** The line as first drawn after its prompt (after a clear), with the cursor where it stands. */
export function drawLine(state: LineState, layout: LineLayout): string {
  return finish(state, layout)
}

/**
 * Rewrites the whole line from its start and puts the cursor back: simple, and right however the line wraps
 * (moving by rows and columns, since cursor-left stops at the edge of a row).
 */
function redraw(before: LineState, after: LineState, layout: LineLayout): string {
  if (before.text === after.text) return travel(before.cursor, after.cursor, layout)
  return travel(before.cursor, 0, layout) + finish(after, layout)
}

/** Writes the text from the line's start (where the cursor is), clears what a longer line left, and places the cursor. */
function finish(state: LineState, layout: LineLayout): string {
  const text = state.text
  let out = text.join('')
  // Exactly at a row's end the terminal holds the cursor on the last column until the next character; a space and a
  // carriage return put it at the start of the next row, where the arithmetic expects it.
  const end = layout.promptWidth + state.text.length
  if (text.length > 0 && end % layout.cols === 0) out += ' \r'
  return `${out}\x1b[J${travel(state.text.length, state.cursor, layout)}`
}

/** Moves the cursor between two offsets of the line. */
function travel(from: number, to: number, { promptWidth, cols }: LineLayout): string {
  if (from === to) return ''
  const a = promptWidth + from
  const b = promptWidth + to
  const rows = Math.floor(b / cols) - Math.floor(a / cols)
  const column = b % cols
  let out = rows < 0 ? `\x1b[${-rows}A` : rows > 0 ? `\x1b[${rows}B` : ''
  out += column === a % cols ? '' : column === 0 ? '\r' : `\r\x1b[${column}C`
  return out
}

/** The prompt's cwd, with the home directory as `~` (as bash shows it). */
export function promptPath(cwd: string, home: string): string {
  if (cwd === home) return '~'
  return cwd.startsWith(`${home}/`) ? `~${cwd.slice(home.length)}` : cwd
}
