// Zod-free on purpose: the ask dialog imports it at runtime (the page must not load zod).
import type { PinnedTool } from './schema'

/** What changed in a tool since the user allowed it, in words the ask dialog shows. */
export interface ToolChange {
  /** The description when the user allowed it, when it is different now. */
  description?: { before: string; after: string }
  /** One sentence per change of the server, the name or the input schema. */
  lines: string[]
}

/**
 * The differences between the definition the user allowed and the one offered now. Input schemas are compared input
 * by input (a new, removed or changed property, a change of what is required, any other key of the schema), so a
 * sentence slipped into one property's description shows up as that property's change.
 */
export function describeToolChange(before: PinnedTool, after: PinnedTool): ToolChange {
  const lines: string[] = []
  if (before.server !== after.server) lines.push(`It now comes from the server “${after.server}” (it was “${before.server}”).`)
  if (before.tool !== after.tool) lines.push(`The server now calls it “${after.tool}” (it was “${before.tool}”).`)
  if (before.inputSchema !== after.inputSchema) lines.push(...schemaChanges(before.inputSchema, after.inputSchema))
  return { ...(before.description !== after.description ? { description: { before: before.description, after: after.description } } : {}), lines }
}

type Json = Record<string, unknown>

function parseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined
  } catch {
    return undefined
  }
}

const compact = (value: unknown): string => JSON.stringify(value) ?? 'nothing'

function schemaChanges(beforeText: string, afterText: string): string[] {
  const before = parseObject(beforeText)
  const after = parseObject(afterText)
  if (!before || !after) return [`The input schema changed from ${beforeText} to ${afterText}.`]
  const lines: string[] = []
  const beforeProperties = asObject(before.properties)
  const afterProperties = asObject(after.properties)
  for (const name of union(Object.keys(beforeProperties), Object.keys(afterProperties))) {
    const was = beforeProperties[name]
    const now = afterProperties[name]
    if (was === undefined) lines.push(`New input “${name}”: ${compact(now)}.`)
    else if (now === undefined) lines.push(`The input “${name}” was removed (it was ${compact(was)}).`)
    else if (compact(was) !== compact(now)) lines.push(`The input “${name}” changed from ${compact(was)} to ${compact(now)}.`)
  }
  const beforeRequired = asStrings(before.required)
  const afterRequired = asStrings(after.required)
  for (const name of afterRequired) if (!beforeRequired.includes(name)) lines.push(`“${name}” is now required.`)
  for (const name of beforeRequired) if (!afterRequired.includes(name)) lines.push(`“${name}” is no longer required.`)
  for (const key of union(Object.keys(before), Object.keys(after))) {
    if (key === 'properties' || key === 'required') continue
    if (compact(before[key]) !== compact(after[key])) lines.push(`The schema's “${key}” changed from ${compact(before[key])} to ${compact(after[key])}.`)
  }
  return lines
}

function asObject(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])]
}
