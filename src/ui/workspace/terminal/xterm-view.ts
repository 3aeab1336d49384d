// Loaded with the first terminal the user opens (a dynamic import): xterm is ~80 KB gzip the first paint never needs.
import { FitAddon } from '@xterm/addon-fit'
import { Terminal, type ITheme } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'
import { OutputPacer, type PacerLimits } from '../../../core/output-pacer'
import { silenceReports } from './silence-reports'

/** What the shell session needs of a terminal on screen. */
export interface TerminalScreen {
  readonly cols: number
  /** The prompt, the echo of keys, the terminal's own words: always shown, in order with the output. */
  write(data: string): void
  /** A command's output, paced to the frames; resolves once the terminal has parsed it (the worker then sends more). */
  output(data: string): Promise<void>
  /** Drops the output still waiting to be shown (the command was stopped). */
  discardOutput(): void
  clear(): void
  focus(): void
  onData(listener: (data: string) => void): void
  dispose(): void
}

export interface ScreenOptions {
  /** Esc or Ctrl+Shift+` : the terminal keeps Tab and most keys, so these hand focus back to the page. */
  onLeave: () => void
}

// ANSI colours readable on each theme's background (xterm's defaults assume black, so yellow vanishes on white).
const LIGHT: ITheme = {
  black: '#24292f', red: '#cf222e', green: '#116329', yellow: '#7d4e00', blue: '#0550ae', magenta: '#8250df', cyan: '#1b7c83', white: '#6e7781',
  brightBlack: '#57606a', brightRed: '#a40e26', brightGreen: '#1a7f37', brightYellow: '#633c01', brightBlue: '#0a5cc2', brightMagenta: '#a475f9', brightCyan: '#3192aa', brightWhite: '#8c959f',
}
const DARK: ITheme = {
  black: '#484f58', red: '#ff7b72', green: '#3fb950', yellow: '#d29922', blue: '#6cb0ff', magenta: '#bc8cff', cyan: '#39c5cf', white: '#b1bac4',
  brightBlack: '#6e7681', brightRed: '#ffa198', brightGreen: '#56d364', brightYellow: '#e3b341', brightBlue: '#79c0ff', brightMagenta: '#d2a8ff', brightCyan: '#56d4dd', brightWhite: '#f0f6fc',
}

function themeOf(element: HTMLElement, dark: boolean): ITheme {
  const style = getComputedStyle(element)
  const token = (name: string) => style.getPropertyValue(name).trim()
  return {
    ...(dark ? DARK : LIGHT),
    background: token('--surface'),
    foreground: token('--text'),
    cursor: token('--text'),
    cursorAccent: token('--surface'),
    selectionBackground: token('--surface-selected'),
  }
}

/**
 * What xterm parses per frame. It parses all that one `write` gives it in one task: a command printing 7 MB held the
 * page for ~3 s. Most of the cost is per line, not per character (each line fed scrolls the screen, and the viewport
 * and the screen reader's rows follow every scroll), so a slice is bounded in both. Nothing is skipped here: the
 * worker sends a piece only once the last is parsed, and skips what would only scroll past (`worker/terminal-handlers.ts`).
 */
const FRAME: PacerLimits = { sliceChars: 16 * 1024, sliceLines: 64, keepChars: Infinity, keepLines: Infinity }

/** Opens xterm in `element`, sized to it and following the page's light or dark theme. */
export function openScreen(element: HTMLElement, options: ScreenOptions): TerminalScreen {
  // The page's resolved theme (ui/kit/theme/theme.ts), which the user may set apart from the system's.
  const dark = () => document.documentElement.dataset.theme === 'dark'
  const terminal = new Terminal({
    // The rows are mirrored into an accessibility tree and new output is announced.
    screenReaderMode: true,
    convertEol: true,
    cursorBlink: false,
    fontFamily: getComputedStyle(element).getPropertyValue('--mono').trim() || 'monospace',
    fontSize: 13,
    // Bounded: a command printing 100 MB keeps the last 5,000 lines, not all of it.
    scrollback: 5000,
    theme: themeOf(element, dark()),
  })
  const fit = new FitAddon()
  terminal.loadAddon(fit)
  terminal.attachCustomKeyEventHandler((event) => {
    if (event.type !== 'keydown') return true
    if (event.key === 'Escape' || (event.ctrlKey && event.shiftKey && event.code === 'Backquote')) {
      event.preventDefault()
      options.onLeave()
      return false
    }
    // With text selected, Ctrl+C copies (the browser's own copy), as in most terminal apps.
    if (event.ctrlKey && !event.shiftKey && event.key === 'c' && terminal.hasSelection()) return false
    return true
  })
  // Output must never type: the terminal answers no query and reports no mouse or focus (see silence-reports.ts).
  silenceReports(terminal.parser)
  terminal.open(element)
  const pacer = new OutputPacer({ write: (data, parsed) => terminal.write(data, parsed), next: (callback) => void requestAnimationFrame(callback) }, FRAME)
  const refit = () => {
    // A hidden tab has no size; fitting it then would shrink the terminal to nothing.
    if (element.clientWidth > 0 && element.clientHeight > 0) fit.fit()
  }
  refit()
  const resize = new ResizeObserver(refit)
  resize.observe(element)
  const retheme = new MutationObserver(() => (terminal.options.theme = themeOf(element, dark())))
  retheme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
  return {
    get cols() {
      return terminal.cols
    },
    write: (data) => pacer.write(data),
    output: (data) => pacer.output(data),
    discardOutput: () => pacer.discardOutput(),
    clear: () => terminal.clear(),
    focus: () => terminal.focus(),
    onData: (listener) => {
      terminal.onData(listener)
    },
    dispose: () => {
      resize.disconnect()
      retheme.disconnect()
      terminal.dispose()
    },
  }
}
