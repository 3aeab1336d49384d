import type { JSX } from 'solid-js'

/**
 * The end of a step. Each assistant message is one step (opencode starts a new message per step), so its usage and
 * why it stopped are the message's own, which its footer shows once; a second line per step only repeated it.
 */
export function StepFinishPartView(): JSX.Element {
  return null
}
