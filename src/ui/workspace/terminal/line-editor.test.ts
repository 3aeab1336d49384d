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
