import type { DeliveryMode } from '../../core/protocol'

/** What the prompt's buttons and keys ask for: send (answered in the running turn, if any) or queue (after it). */
export type PromptAction = 'send' | 'queue'

/** The fields of a keydown the prompt cares about, so the mapping can be tested without a DOM. */
export interface PromptKey {
  key: string
  shiftKey: boolean
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  isComposing: boolean
}

/**
 * Enter sends and Shift+Enter is a new line; Alt+Enter queues while a turn runs (and sends otherwise). Keys pressed
 * while an input method composes belong to it.
 */
export function promptKeyAction(press: PromptKey, running: boolean): PromptAction | undefined {
  if (press.key !== 'Enter' || press.shiftKey || press.isComposing) return undefined
  if (press.altKey) return running ? 'queue' : 'send'
  return 'send'
}

/**
 * The delivery mode a prompt goes with. Idle: none (a plain prompt starts a turn). Running: "send" steers the
 * current turn (answered at its next step), "queue" waits for it to end.
 */
export function deliveryFor(action: PromptAction, running: boolean): DeliveryMode | undefined {
  if (!running) return undefined
  return action === 'queue' ? 'queue' : 'steer'
}

/** A prompt needs some text; whitespace alone is not one. */
export const canSend = (text: string): boolean => text.trim().length > 0

/**
 * Escape stops the running turn when focus is in the prompt or the conversation, unless something closer used it
 * (an inline editor cancelling, an input method) or a dialog is open (Escape closes the dialog).
 */
export function escapeStops(press: {
  key: string
  isComposing: boolean
  defaultPrevented: boolean
  dialogOpen: boolean
  running: boolean
}): boolean {
  return press.key === 'Escape' && press.running && !press.isComposing && !press.defaultPrevented && !press.dialogOpen
}
