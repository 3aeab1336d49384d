import { z } from 'zod'
import manifest from './offline-wheels.json'

/**
 * The offline set of pure-Python wheels: pytest and what it needs on Python 3.14 (its `Requires-Dist` less the
 * markers that are false here: colorama on Windows, exceptiongroup and tomli before 3.11). The build fetches them
 * by these pins (scripts/python-wheels.mjs) and serves them from the app's origin under /python-wheels/, with an
 * index.json saying whether this build has them.
 */
export const WheelSchema = z.object({
  type: z.literal('wheel'),
  name: z.string(),
  version: z.string(),
  file: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Bytes, for the progress of a first download. */
  size: z.number().int().positive(),
  requires: z.array(z.string()),
})
export type Wheel = z.infer<typeof WheelSchema>

export const OFFLINE_WHEELS: readonly Wheel[] = manifest.wheels.map((wheel) => WheelSchema.parse({ type: 'wheel', ...wheel }))

export const WHEEL_INDEX = 'index.json'

/** What /python-wheels/index.json says about this build. */
export const WheelIndexSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('available'), files: z.array(z.string()) }),
  z.object({ type: z.literal('unavailable'), reason: z.string() }),
])
export type WheelIndex = z.infer<typeof WheelIndexSchema>

/** A project's name as pip compares it (PEP 503): case and runs of `-`, `_`, `.` do not matter. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-')
}

export function findWheel(name: string, wheels: readonly Wheel[] = OFFLINE_WHEELS): Wheel | undefined {
  const wanted = normalizeName(name)
  return wheels.find((wheel) => normalizeName(wheel.name) === wanted)
}

/** A requirement as written on pip's command line or in a requirements file: `name`, `name==1.2`, `name>=1`, `name[extra]`. */
export interface Requirement {
  name: string
  /** `==version` only; other specifiers are accepted when the pinned version is the only one there is. */
  pinned: string | undefined
  text: string
}

const REQUIREMENT = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$/

export function parseRequirement(text: string): Requirement | undefined {
  const match = REQUIREMENT.exec(text.split(';')[0]!.trim())
  if (!match) return undefined
  const pinned = /^==\s*([^\s,]+)$/.exec(match[2]!.trim())?.[1]
  return { name: match[1]!, pinned, text: text.trim() }
}

/** The lines of a requirements file that name a package (comments, blank lines and options left out). */
export function requirementLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('-'))
}

export type Resolution =
  | { type: 'resolved'; wheels: Wheel[] }
  | { type: 'unknown'; names: string[] }
  | { type: 'version'; requirement: Requirement; wheel: Wheel }

/** The wheels that installing `requirements` takes, dependencies before what needs them, each once. */
export function resolve(requirements: readonly Requirement[], wheels: readonly Wheel[] = OFFLINE_WHEELS): Resolution {
  const unknown = requirements.filter((requirement) => !findWheel(requirement.name, wheels)).map((requirement) => requirement.name)
  if (unknown.length > 0) return { type: 'unknown', names: unknown }
  for (const requirement of requirements) {
    const wheel = findWheel(requirement.name, wheels)!
    if (requirement.pinned !== undefined && requirement.pinned !== wheel.version) return { type: 'version', requirement, wheel }
  }
  const ordered: Wheel[] = []
  const visit = (wheel: Wheel) => {
    if (ordered.includes(wheel)) return
    for (const dependency of wheel.requires) visit(findWheel(dependency, wheels)!)
    ordered.push(wheel)
  }
  for (const requirement of requirements) visit(findWheel(requirement.name, wheels)!)
  return { type: 'resolved', wheels: ordered }
}

/** The set's names, for messages. */
export function setNames(wheels: readonly Wheel[] = OFFLINE_WHEELS): string {
  return wheels.map((wheel) => wheel.name).join(', ')
}
