import { z } from 'zod'
import { PermissionActionSchema, type PermissionRule } from '../schema'

/**
 * The written form of permissions (opencode's `permission` config): one action for everything, or a map from
 * permission key to an action or to a `{pattern: action}` map. Key order is rule order, so later keys win.
 */
export const PermissionConfigSchema = z.union([
  PermissionActionSchema,
  z.record(z.string(), z.union([PermissionActionSchema, z.record(z.string(), PermissionActionSchema)])),
])
export type PermissionConfig = z.infer<typeof PermissionConfigSchema>

/**
 * Flattens the written form into an ordered ruleset, keeping the author's order (opencode's `fromConfig`). A bare
 * action stands for `{"*": action}`. opencode's `~` and `$HOME` expansion is left out: there is no home directory.
 */
export function fromConfig(config: PermissionConfig): PermissionRule[] {
  if (typeof config === 'string') return [{ permission: '*', pattern: '*', action: config }]
  const rules: PermissionRule[] = []
  for (const [permission, value] of Object.entries(config)) {
    if (typeof value === 'string') {
      rules.push({ permission, pattern: '*', action: value })
      continue
    }
    for (const [pattern, action] of Object.entries(value)) rules.push({ permission, pattern, action })
  }
  return rules
}
