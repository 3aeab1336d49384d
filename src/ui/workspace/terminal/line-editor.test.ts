import { describe, expect, it } from 'vitest'
import { applyKey, drawLine, emptyLine, keysOf, promptPath, type LineAction, type LineLayout, type LineState } from './line-editor'

const LEFT = '\x1b[D'
const RIGHT = '\x1b[C'
const UP = '\x1b[A'
const DOWN = '\x1b[B'
const HOME = '\x1b[H'
const END = '\x1b[F'
const BACKSPACE = '\x7f'

/** Just enough of a terminal screen (text, wrap, cursor moves, erase below) to see what the user would see. */
class Screen {
  rows: string[][] = [[]]
  row = 0
  col = 0
  constructor(readonly cols: number) {}
  write(data: string) {
    for (const token of data.match(/\x1b\[\d*[A-Za-z]|[\s\S]/g) ?? []) {
      const csi = /^\x1b\[(\d*)([A-Za-z])$/.exec(token)
      if (csi) {
        const n = Number(csi[1] || 1)
        if (csi[2] === 'A') this.row -= n
        if (csi[2] === 'B') this.row += n
        if (csi[2] === 'C') this.col = Math.min(this.cols - 1, this.col + n)
        if (csi[2] === 'D') this.col = Math.max(0, this.col - n)
        if (csi[2] === 'J') {
          this.rows[this.row] = this.line().slice(0, this.col)
          this.rows.length = this.row + 1
        }
      } else if (token === '\r') this.col = 0
      else if (token === '\n') this.row++
      else {
        if (this.col === this.cols) {
          this.col = 0
          this.row++
        }
        this.line()[this.col++] = token
      }
    }
  }
  line() {
    return (this.rows[this.row] ??= [])
  }
  text() {
    return this.rows.map((row) => Array.from(row, (cell) => cell ?? ' ').join('')).join('\n')
  }
}

function terminal(layout: LineLayout = { promptWidth: 2, cols: 80 }, history: string[] = []) {
  const screen = new Screen(layout.cols)
  screen.write('$ ')
  let state: LineState = emptyLine(history)
  const actions: LineAction[] = []
  const type = (data: string) => {
    for (const key of keysOf(data)) {
      const result = applyKey(state, key, layout)
      state = result.state
      screen.write(result.echo)
      if (result.action) actions.push(result.action)
    }
  }
  return { type, screen, actions, state: () => state, cursor: () => (screen.col === layout.cols ? [screen.row + 1, 0] : [screen.row, screen.col]) }
}

describe('the terminal line editor', () => {
  it('runs the typed line on Enter, edited with left, right, backspace, Home and End', () => {
    const t = terminal()
    t.type('ech hi')
    t.type(LEFT + LEFT + LEFT + 'o')
    expect(t.screen.text()).toBe('$ echo hi')
    t.type(HOME + 'x' + BACKSPACE + END + '!')
    t.type(HOME + '\x1b[3~' + 'e')
    expect(t.screen.text()).toBe('$ echo hi!')
    expect(t.cursor()).toEqual([0, 3])
    t.type(RIGHT + '\r')
    expect(t.actions).toEqual([{ type: 'run', command: 'echo hi!' }])
    expect(t.state().text).toEqual([])
    expect(t.cursor()).toEqual([1, 0])
  })

  it('recalls earlier commands with ↑ and comes back to the line being typed with ↓', () => {
    const t = terminal({ promptWidth: 2, cols: 80 }, ['ls', 'cd src'])
    t.type('pw')
    t.type(UP)
    expect(t.screen.text()).toBe('$ cd src')
    t.type(UP + UP)
    expect(t.screen.text()).toBe('$ ls')
    t.type(DOWN)
    expect(t.screen.text()).toBe('$ cd src')
    t.type(DOWN)
    expect(t.screen.text()).toBe('$ pw')
    t.type('d\r')
    expect(t.actions).toEqual([{ type: 'run', command: 'pwd' }])
    expect(t.state().history).toEqual(['ls', 'cd src', 'pwd'])
  })

  it('keeps neither blank lines nor a repeat of the last command in the history', () => {
    const t = terminal()
    t.type('ls\r\r   \rls\r')
    expect(t.state().history).toEqual(['ls'])
    expect(t.actions.map((action) => action.type === 'run' && action.command)).toEqual(['ls', '', '   ', 'ls'])
  })

  it('prints ^C and gives a fresh line on Ctrl+C; Ctrl+L asks for a clear', () => {
    const t = terminal()
    t.type('sleep 3')
    t.type(HOME + '\x03')
    expect(t.screen.text()).toBe('$ sleep 3^C')
    expect(t.cursor()).toEqual([1, 0])
    expect(t.state().text).toEqual([])
    t.type('\x0c')
    expect(t.actions).toEqual([{ type: 'interrupt' }, { type: 'clear' }])
  })

  it('edits a line that wraps past the terminal\'s width', () => {
    const layout = { promptWidth: 2, cols: 10 }
    const t = terminal(layout)
    t.type('echo 1234567890')
    expect(t.screen.text()).toBe('$ echo 123\n4567890')
    t.type(HOME + 'x')
    expect(t.screen.text()).toBe('$ xecho 12\n34567890')
    expect(t.cursor()).toEqual([0, 3])
    t.type(BACKSPACE + END)
    expect(t.cursor()).toEqual([1, 7])
    // Exactly filling the second row leaves the cursor at the start of the third.
    t.type('abc')
    expect(t.cursor()).toEqual([2, 0])
    t.type(BACKSPACE + BACKSPACE + BACKSPACE + BACKSPACE)
    expect(t.screen.text()).toBe('$ echo 123\n456789')
    expect(drawLine(t.state(), layout)).toContain('456789')
  })

  it('takes a paste of several lines as several commands, and surrogate pairs as one character', () => {
    const t = terminal()
    t.type('echo a\necho 😀b' + LEFT + BACKSPACE + '\r')
    expect(t.actions).toEqual([
      { type: 'run', command: 'echo a' },
      { type: 'run', command: 'echo b' },
    ])
  })

  it('shows the home directory as ~ in the prompt', () => {
    expect(promptPath('/workspace', '/workspace')).toBe('~')
    expect(promptPath('/workspace/src', '/workspace')).toBe('~/src')
    expect(promptPath('/workspaces', '/workspace')).toBe('/workspaces')
  })
})

describe('terminal input that is not the user typing', () => {
  // What a terminal answers to queries (xterm.js sends these through the same data event as keys) and what it sends
  // on its own once a program turns a mode on. None of it is text the user typed.
  const reports = {
    'cursor position (DSR 6n)': '\x1b[24;80R',
    'DEC cursor position (DSR ?6n)': '\x1b[?24;80R',
    'status (DSR 5n)': '\x1b[0n',
    'primary attributes (DA1)': '\x1b[?1;2c',
    'secondary attributes (DA2)': '\x1b[>0;276;0c',
    'a setting (DECRQSS)': '\x1bP1$r0m\x1b\\',
    'a mode (DECRQM)': '\x1b[?2026;2$y',
    'a colour (OSC 10, ST)': '\x1b]10;rgb:1f1f/2323/2828\x1b\\',
    'a colour (OSC 11, BEL)': '\x1b]11;rgb:ffff/ffff/ffff\x07',
    'the window size (XTWINOPS)': '\x1b[8;24;80t',
    'focus in and out': '\x1b[I\x1b[O',
    'a mouse click (X10)': '\x1b[M !!',
    'a mouse click (SGR)': '\x1b[<0;12;3M\x1b[<0;12;3m',
    'an 8-bit CSI': '\x9b24;80R',
    'an 8-bit DCS': '\x901$r0m\x9c',
    'an unterminated string': '\x1b]10;rgb:0/0/0',
  }

  it.each(Object.entries(reports))('leaves the line as it was after %s', (_what, report) => {
    const t = terminal()
    t.type('ls')
    t.type(report)
    t.type('\r')
    expect(t.actions).toEqual([{ type: 'run', command: 'ls' }])
  })

  it('keeps the text around sequences in a paste, and the keys it knows', () => {
    expect(keysOf('a\x1b[31mred\x1b[0m\x1bP$qm\x1b\\b')).toEqual(['a', '\x1b[31m', 'red', '\x1b[0m', '\x1bP$qm\x1b\\', 'b'])
    expect(keysOf('\x1b[A\x1bOB\x1b[3~\x1bb\r\n')).toEqual(['\x1b[A', '\x1bOB', '\x1b[3~', '\x1bb', '\r\n'])
    const t = terminal()
    t.type('\x1b[200~echo pasted\x1b[201~')
    t.type('\r')
    expect(t.actions).toEqual([{ type: 'run', command: 'echo pasted' }])
  })
})
