import type { AgentFile } from '../agent'
import type { PermissionRule, ReviewedRule } from '../schema'
import { agentAt } from './agent-paths'

/**
 * The `allow` rules of a trusted project's agent files that the user has seen (DESIGN decision 11). Trust is given
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
  const rules = file.config.permission ?? []
  return rules.flatMap((rule, index): ReviewedRule[] =>
    rule.action === 'allow'
      ? [{ path: file.path, agent: file.name, permission: rule.permission, pattern: rule.pattern, action: 'allow', exceptions: exceptionsAfter(rules, index) }]
      : [],
  )
}

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
 * The reviewed rules once the user wrote the agent file at `path` through the app (the editor, the Files panel):
 * what the file held before and what it holds now (undefined: no file, or not a usable agent file). The rules the
 * write brought in are the user's own; those that were there before keep the standing they had, so saving a file
 * the agent wrote into does not pass its rules for reviewed; a rule the write took out is forgotten, so the agent
 * writing it back asks again.
 */
export function afterUserWrite(reviewed: readonly ReviewedRule[], path: string, before: AgentFile | undefined, after: AgentFile | undefined): ReviewedRule[] {
  const known = new Set(reviewed.map(ruleKey))
  const earlier = new Set((before ? allowRules(before) : []).map(ruleKey))
  const own = (after ? allowRules(after) : []).filter((rule) => known.has(ruleKey(rule)) || !earlier.has(ruleKey(rule)))
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
