import type { AgentFile } from '../agent'
import type { PermissionRule, ReviewedRule } from '../schema'
import { agentAt } from './agent-paths'

/**
 * The `allow` rules of a trusted project's agent files that the user has seen. Trust is given
 * to files as the user saw them: the agent's own tools can write `.opencode/agent/build.md` later, and a rule they
 * write must not apply before the user has seen it. A rule is known by its file, its agent, its permission and
 * pattern, and the `ask` and `deny` rules after it in its file: a later rule wins, so those narrow what it allows,
 * and taking one of them away (or moving it before the rule) widens the rule as surely as writing a new one.
 */

export type RuleException = ReviewedRule['exceptions'][number]

/** The `ask` and `deny` rules after `index`, in order: what the rule there does not allow after all. */
export function exceptionsAfter(rules: readonly PermissionRule[], index: number): RuleException[] {
  return rules.slice(index + 1).flatMap((rule) => (rule.action === 'allow' ? [] : [{ permission: rule.permission, pattern: rule.pattern, action: rule.action }]))
}

/** Each `allow` rule of an agent file (a `tools: {x: true}` entry is one), as the user reviews it. */
export function allowRules(file: AgentFile): ReviewedRule[] {
  return allowRulesIn(file.path, file.name, file.config.permission ?? [])
}

/** Each `allow` rule of the rules the agent file at `path` writes for `agent`, as the user reviews it. */
export function allowRulesIn(path: string, agent: string, rules: readonly PermissionRule[]): ReviewedRule[] {
  return rules.flatMap((rule, index): ReviewedRule[] =>
    rule.action === 'allow' ? [{ path, agent, permission: rule.permission, pattern: rule.pattern, action: 'allow', exceptions: exceptionsAfter(rules, index) }] : [],
  )
}

/**
 * What an agent file holds for its review, read from its text whether or not the agent it defines can be used (a
 * misspelt `mode`, a file over the size limit): `none` (no file), its `allow` rules, or `unreadable` (its rules
 * cannot be told, as when its front matter is not YAML).
 */
export type AgentFileRules = { type: 'none' } | { type: 'rules'; rules: ReviewedRule[] } | { type: 'unreadable' }

/**
 * The rule the user reviews by letting a withheld one apply (`WithheldRule` of `trust.ts`); none for an ask or deny
 * rule, which needs no review.
 */
export function reviewedRule(rule: PermissionRule & Pick<ReviewedRule, 'path' | 'agent' | 'exceptions'>): ReviewedRule | undefined {
  if (rule.action !== 'allow') return undefined
  return { path: rule.path, agent: rule.agent, permission: rule.permission, pattern: rule.pattern, action: 'allow', exceptions: rule.exceptions }
}

/** Equal for two rules that allow the same requests from the same file. */
export function ruleKey(rule: ReviewedRule): string {
  return JSON.stringify([rule.path, rule.agent, rule.permission, rule.pattern, rule.exceptions.map((entry) => [entry.permission, entry.pattern, entry.action])])
}

/** `reviewed` and then `added`, each rule once. */
export function withReviewed(reviewed: readonly ReviewedRule[], added: readonly ReviewedRule[]): ReviewedRule[] {
  const seen = new Set<string>()
  return [...reviewed, ...added].filter((rule) => {
    const key = ruleKey(rule)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`)

/**
 * The reviewed rules once the user wrote the agent file at `path` through the app (the editor, the Files panel),
 * from what the file held before and what the user wrote. The rules the write brought in are the user's own; those
 * that were there before keep the standing they had, so saving a file the agent wrote into does not pass its rules
 * for reviewed, even one that could not be used and so was never listed for review; a rule the write took out is
 * forgotten, so the agent writing it back asks again. When the file before could not be read, no rule after the
 * write counts as brought in by it (only those already seen keep standing); when what the user wrote cannot be
 * read, what was seen stays as it was (it applies once the file is fixed, if it is still there).
 */
export function afterUserWrite(reviewed: readonly ReviewedRule[], path: string, before: AgentFileRules, after: AgentFileRules): ReviewedRule[] {
  if (after.type !== 'rules') return [...reviewed]
  const known = new Set(reviewed.map(ruleKey))
  const earlier = new Set(before.type === 'rules' ? before.rules.map(ruleKey) : [])
  const brought = (rule: ReviewedRule) => before.type === 'none' || (before.type === 'rules' && !earlier.has(ruleKey(rule)))
  const own = after.rules.filter((rule) => known.has(ruleKey(rule)) || brought(rule))
  return withReviewed(
    reviewed.filter((rule) => rule.path !== path),
    own,
  )
}

/** The reviewed rules of the files at or under `path` (a file or a folder), to put back if they come back. */
export function reviewedUnder(reviewed: readonly ReviewedRule[], path: string): ReviewedRule[] {
  return reviewed.filter((rule) => under(rule.path, path))
}

/** The reviewed rules once the user deleted `path` (a file or a folder): its files' rules are forgotten. */
export function afterUserDelete(reviewed: readonly ReviewedRule[], path: string): ReviewedRule[] {
  return reviewed.filter((rule) => !under(rule.path, path))
}

/**
 * The reviewed rules once the user renamed or moved `from` to `to` (a file or a folder): a rule the user had seen
 * keeps that standing in the same file under its new name, as the agent it now defines; one outside the agent
 * folders defines none and is forgotten. A file moved into an agent folder brings nothing reviewed with it.
 */
export function afterUserMove(reviewed: readonly ReviewedRule[], from: string, to: string): ReviewedRule[] {
  const moved = reviewedUnder(reviewed, from).flatMap((rule): ReviewedRule[] => {
    const path = `${to}${rule.path.slice(from.length)}`
    const agent = agentAt(path)
    return agent ? [{ ...rule, path, agent }] : []
  })
  return withReviewed(afterUserDelete(reviewed, from), moved)
}
