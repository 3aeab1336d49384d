import type { PermissionRule } from '../schema'
import { fromConfig } from './config'
import { OUTPUT_FOLDER_GLOB } from './evaluate'

/**
 * Where the plan agent may write its plans, relative to the project root. opencode uses `.opencode/plans/*.md`
 * (plus a global plans folder, which a browser has no equivalent of); ours lives under `.tabcode/`.
 */
export const PLAN_FILES = '.tabcode/plans/*.md'

/**
 * opencode's defaults: everything allowed except what follows, which asks or is denied. Two differences, both ways
 * out of the tab that could carry a secret: `webfetch` asks (per host, see tools/webfetch.ts) where opencode allows
 * it, and `webcontainer` (starting WebContainer, whose commands reach the network; opencode has no such thing) asks.
 */
export const DEFAULT_RULES: readonly PermissionRule[] = fromConfig({
  '*': 'allow',
  webfetch: 'ask',
  webcontainer: 'ask',
  doom_loop: 'ask',
  external_directory: { '*': 'ask', [OUTPUT_FOLDER_GLOB]: 'allow' },
  question: 'deny',
  plan_enter: 'deny',
  plan_exit: 'deny',
  // Mirrors github/gitignore's Node.gitignore for .env files, as opencode does.
  read: { '*': 'allow', '*.env': 'ask', '*.env.*': 'ask', '*.env.example': 'allow' },
})

const denyEverything = fromConfig({ '*': 'deny' })

/** Each built-in agent's own rules, which follow the defaults (opencode `agent/agent.ts`). */
export const AGENT_RULES = {
  build: fromConfig({ question: 'allow', plan_enter: 'allow' }),
  /** Read-only except plan files. */
  plan: fromConfig({
    question: 'allow',
    plan_exit: 'allow',
    task: { general: 'deny' },
    edit: { '*': 'deny', [PLAN_FILES]: 'allow' },
  }),
  general: fromConfig({ todowrite: 'deny' }),
  /** Read-only search: everything denied, then the looking tools allowed. */
  explore: fromConfig({
    '*': 'deny',
    grep: 'allow',
    glob: 'allow',
    list: 'allow',
    bash: 'allow',
    // opencode allows it; here it asks as for any agent, so a subagent is no way around the question.
    webfetch: 'ask',
    websearch: 'allow',
    read: 'allow',
    external_directory: { '*': 'ask', [OUTPUT_FOLDER_GLOB]: 'allow' },
  }),
  // The hidden agents call no tools.
  compaction: denyEverything,
  title: denyEverything,
  summary: denyEverything,
} as const satisfies Record<string, readonly PermissionRule[]>

export type BuiltinAgentName = keyof typeof AGENT_RULES

/**
 * An agent's ruleset before user settings: the defaults, then the built-in agent's rules (none for an agent the
 * user defined). This is what `check` takes as `agentRules`.
 */
export function agentRules(name: string): PermissionRule[] {
  const own: readonly PermissionRule[] = Object.hasOwn(AGENT_RULES, name) ? AGENT_RULES[name as BuiltinAgentName] : []
  return [...DEFAULT_RULES, ...own]
}
