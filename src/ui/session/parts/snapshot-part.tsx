import type { JSX } from 'solid-js'

export const shortHash = (hash: string) => hash.slice(0, 8)

/**
 * Legacy marker of a workspace snapshot. The hash matters to revert, which finds it by itself; to a reader it was
 * noise under every step.
 */
export function SnapshotPartView(): JSX.Element {
  return null
}
