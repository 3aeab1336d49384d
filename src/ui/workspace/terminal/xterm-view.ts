// Loaded with the first terminal the user opens (a dynamic import): xterm is ~80 KB gzip the first paint never needs.
import { FitAddon } from '@xterm/addon-fit'
import { Terminal, type ITheme } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'

/** What the shell session needs of a terminal on screen. */
export interface TerminalScreen {
  readonly cols: number
  write(data: string): void
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

/** Opens xterm in `element`, sized to it and following the page's light or dark theme. */
export function openScreen(element: HTMLElement, options: ScreenOptions): TerminalScreen {
  // The page's resolved theme (ui/theme/theme.ts), which the user may set apart from the system's.
  const dark = () => document.documentElement.dataset.theme === 'dark'
  const terminal = new Terminal({
    // The rows are mirrored into an accessibility tree and new output is announced.
    screenReaderMode: true,
    convertEol: true,
    cursorBlink: false,
    fontFamily: getComputedStyle(element).getPropertyValue('--mono').trim() || 'monospace',
    fontSize: 13,
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
  terminal.open(element)
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
    write: (data) => terminal.write(data),
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
