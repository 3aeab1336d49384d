import type { PermissionRule } from '../schema'
import { OUTPUT_FOLDER } from '../paths'
import { matchWildcard } from './wildcard'

/** Where truncated tool outputs are saved: reading them back must never need a question (opencode's Truncate.GLOB). */
export const OUTPUT_FOLDER_GLOB = `${OUTPUT_FOLDER}/*`

/**
 * The rule that decides `permission` on `pattern`: the **last** rule, across all rulesets in order, whose
 * permission and pattern both match (wildcards on both). With no match the answer is `ask`. So a catch-all goes
 * first and the exceptions after it (opencode issues #28682, #22375 come from the other order).
 */
export function evaluate(permission: string, pattern: string, ...rulesets: readonly (readonly PermissionRule[])[]): PermissionRule {
  const rules = rulesets.flat()
  const match = rules.findLast((rule) => matchWildcard(permission, rule.permission) && matchWildcard(pattern, rule.pattern))
  return match ?? { permission, pattern: '*', action: 'ask' }
}

/** Whether the rulesets allow `permission` on every one of `patterns`, as a tool's ask decides it: nothing to ask. */
export function allowsAll(permission: string, patterns: readonly string[], ...rulesets: readonly (readonly PermissionRule[])[]): boolean {
  return patterns.every((pattern) => evaluate(permission, pattern, ...rulesets).action === 'allow')
}

export interface RuleSources {
  /** The agent's ruleset: the defaults followed by the built-in agent's own rules (see `agentRules`). */
  agentRules: readonly PermissionRule[]
  /** The user's `permission` settings, then the per-agent ones. */
  userRules?: readonly PermissionRule[] | undefined
  /** Rules set on the session (subagent sessions inherit their parent's denials this way). */
  sessionRules?: readonly PermissionRule[] | undefined
}

/**
 * The configured rules of a tool call, in precedence order: defaults → agent → user config →
 * session. Remembered approvals are not in here: they are evaluated after these, last of all. As in opencode, the
 * saved-outputs folder is allowed after the user's rules unless the user denied exactly that folder.
 */
export function effectiveRules(sources: RuleSources): PermissionRule[] {
  const configured = [...sources.agentRules, ...(sources.userRules ?? [])]
  const outputsDenied = configured.some(
    (rule) => rule.permission === 'external_directory' && rule.action === 'deny' && rule.pattern === OUTPUT_FOLDER_GLOB,
  )
  const outputs: PermissionRule[] = outputsDenied
    ? []
    : [{ permission: 'external_directory', pattern: OUTPUT_FOLDER_GLOB, action: 'allow' }]
  return [...configured, ...outputs, ...(sources.sessionRules ?? [])]
}

/** Tools whose calls all ask under the `edit` permission (opencode's EDIT_TOOLS). */
export const EDIT_TOOLS: readonly string[] = ['edit', 'write', 'patch', 'apply_patch', 'multiedit']

/** The permission key a tool's calls are checked under. */
export function permissionOf(toolID: string): string {
  return EDIT_TOOLS.includes(toolID) ? 'edit' : toolID
}

/**
 * Tools to hide from the model: those whose last rule for their permission (any pattern) is a deny on `*`. A deny
 * with a narrower pattern keeps the tool visible and only blocks the calls it matches.
 */
export function disabledTools(toolIDs: readonly string[], ruleset: readonly PermissionRule[]): Set<string> {
  const disabled = new Set<string>()
  for (const toolID of toolIDs) {
    const permission = permissionOf(toolID)
    const rule = ruleset.findLast((candidate) => matchWildcard(permission, candidate.permission))
    if (rule?.pattern === '*' && rule.action === 'deny') disabled.add(toolID)
  }
  return disabled
}

/** Configured rules that concern `permission`, for a denial message. */
export function rulesFor(permission: string, ruleset: readonly PermissionRule[]): PermissionRule[] {
  return ruleset.filter((rule) => matchWildcard(permission, rule.permission))
}

/**
 * The rules a subagent's child session starts with (opencode's task tool): every denial of the parent session and
 * all of its `external_directory` rules, so a subagent never gets further than its caller; and no todo list and no
 * nested subagents unless the subagent's own ruleset says something about `todowrite` or `task`.
 */
export function subagentSessionRules(parentSessionRules: readonly PermissionRule[], subagentRules: readonly PermissionRule[]): PermissionRule[] {
  const inherited = parentSessionRules.filter((rule) => rule.action === 'deny' || rule.permission === 'external_directory')
  const mentions = (permission: string) => subagentRules.some((rule) => rule.permission === permission)
  const withheld: PermissionRule[] = ['todowrite', 'task']
    .filter((permission) => !mentions(permission))
    .map((permission) => ({ permission, pattern: '*', action: 'deny' }))
  return [...inherited, ...withheld]
}
