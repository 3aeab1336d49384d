import type { JSX } from 'solid-js'

/**
 * A step boundary. Each assistant message is usually one step, so a visible marker would only repeat the message
 * edge; the snapshot hash it carries matters to revert, not to the reader.
 */
export function StepStartPartView(): JSX.Element {
  return null
}
