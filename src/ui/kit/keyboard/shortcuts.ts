/** Every app-wide shortcut, in one table: the key handler, `aria-keyshortcuts` and the help dialog all read it. */
export type ShortcutAction = 'new-session' | 'previous-session' | 'next-session' | 'focus-prompt' | 'show-shortcuts' | 'stop'

export interface Shortcut {
  action: ShortcutAction
  /** In `aria-keyshortcuts` syntax; several alternatives are separated by spaces. */
  keys: string
  /** What the help dialog shows. */
  label: string
  description: string
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'new-session', keys: 'Alt+N', label: 'Alt + N', description: 'New session' },
  { action: 'previous-session', keys: 'Alt+ArrowUp', label: 'Alt + ↑', description: 'Open the previous session in the list' },
  { action: 'next-session', keys: 'Alt+ArrowDown', label: 'Alt + ↓', description: 'Open the next session in the list' },
  { action: 'focus-prompt', keys: 'Alt+L /', label: 'Alt + L  or  /', description: 'Focus the prompt (/ only when not typing)' },
  { action: 'show-shortcuts', keys: 'Shift+?', label: '?', description: 'Show keyboard shortcuts (when not typing)' },
  // Handled by the session view, not the global matcher: it applies only while focus is in the prompt or the
  // conversation, and never behind a dialog (where Escape closes the dialog).
  { action: 'stop', keys: 'Escape', label: 'Esc', description: 'Stop the running turn (in the prompt or the conversation)' },
]

export const keysFor = (action: ShortcutAction): string => SHORTCUTS.find((shortcut) => shortcut.action === action)!.keys

/** The fields of a KeyboardEvent the matcher needs, so it can be tested without a DOM. */
export interface KeyPress {
  key: string
  code: string
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  /** True when focus is in a text field, where plain keys are text and not commands. */
  typing: boolean
}

export function matchShortcut(press: KeyPress): ShortcutAction | undefined {
  if (press.ctrlKey || press.metaKey) return undefined
  if (press.altKey && !press.shiftKey) {
    // `code`, not `key`: on macOS Option+N types "˜", and the physical key is what people press.
    if (press.code === 'KeyN') return 'new-session'
    if (press.code === 'KeyL') return 'focus-prompt'
    if (press.key === 'ArrowUp') return 'previous-session'
    if (press.key === 'ArrowDown') return 'next-session'
    return undefined
  }
  if (press.altKey || press.typing) return undefined
  if (press.key === '/') return 'focus-prompt'
  if (press.key === '?') return 'show-shortcuts'
  return undefined
}
