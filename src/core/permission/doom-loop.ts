import type { PermissionRequest } from '../ports'

/** How many identical calls in a row look like the model is stuck (opencode's DOOM_LOOP_THRESHOLD). */
export const DOOM_LOOP_THRESHOLD = 3

export interface RecentCall {
  tool: string
  input: unknown
}

/**
 * True when the last `threshold` calls are the same tool with deep-equal input. Feed it the calls of the whole
 * current turn, across its assistant messages: opencode looks only inside the current message, so a model that
 * repeats one call per step is never caught there (opencode issue #50073).
 */
export function isDoomLoop(recentCalls: readonly RecentCall[], threshold = DOOM_LOOP_THRESHOLD): boolean {
  if (threshold < 1 || recentCalls.length < threshold) return false
  const last = recentCalls.slice(-threshold)
  const first = last[0]!
  return last.every((call) => call.tool === first.tool && deepEqual(call.input, first.input))
}

/** The question the loop asks when it detects a doom loop; check it against the agent's rules only, as opencode does. */
export function doomLoopRequest(call: RecentCall): PermissionRequest {
  return {
    permission: 'doom_loop',
    patterns: [call.tool],
    always: [call.tool],
    metadata: { tool: call.tool, input: call.input },
  }
}

/** Structural equality of JSON-like values; key order does not matter (unlike opencode's JSON.stringify compare). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]))
  }
  const left = Object.entries(a as Record<string, unknown>).filter(([, value]) => value !== undefined)
  const right = Object.entries(b as Record<string, unknown>).filter(([, value]) => value !== undefined)
  if (left.length !== right.length) return false
  const other = b as Record<string, unknown>
  return left.every(([key, value]) => Object.hasOwn(other, key) && deepEqual(value, other[key]))
}
