import { onCleanup } from 'solid-js'
import { matchShortcut, type ShortcutAction } from './shortcuts'

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'password', 'number', 'tel', 'date', 'time'])

/** Focus in a field where keys are text, so `/` and `?` must type and not act. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type)
}

/**
 * Wires the app-wide shortcuts (see shortcuts.ts) to handlers for as long as the owner lives. An open modal dialog
 * owns the keyboard, so nothing fires behind it; Escape is left to the dialogs and inline editors themselves.
 */
export function createShortcuts(handlers: Partial<Record<ShortcutAction, () => void>>): void {
  const listener = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing) return
    if (document.querySelector('dialog[open]')) return
    const action = matchShortcut({
      key: event.key,
      code: event.code,
      altKey: event.altKey,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      shiftKey: event.shiftKey,
      typing: isTypingTarget(event.target),
    })
    const handler = action ? handlers[action] : undefined
    if (!handler) return
    event.preventDefault()
    handler()
  }
  document.addEventListener('keydown', listener)
  onCleanup(() => document.removeEventListener('keydown', listener))
}
