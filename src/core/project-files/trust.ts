import { AGENTS, type AgentConfig, type AgentFile } from '../agent'
import type { PermissionRule, Project, ProjectOrigin, ProjectTrust, ReviewedRule } from '../schema'
import { exceptionsAfter, ruleKey, type RuleException } from './reviewed-rules'

/**
 * Project trust. opencode can take a project's config at its word because its user cloned the
 * project onto their own disk; a tab opens zips, folders and files from anyone. So a project is the user's to trust:
 * until they do, its own files (`.opencode/agent(s)`, `.opencode/command(s)`) can only make rules stricter. Once they
 * do, an `allow` rule still applies only once they have seen it: files change after trust, the agent's tools among
 * the writers (`reviewed-rules.ts`).
 */

export function isTrusted(project: Pick<Project, 'trust'>): boolean {
  return project.trust.type === 'trusted'
}

/**
 * The trust a new project starts with: one the user started empty is their own; a branch keeps the trust of the
 * project it branched from (its files are that project's); anything that came from elsewhere waits for the user.
 */
export function initialTrust(origin: ProjectOrigin, now: number, source?: ProjectTrust): ProjectTrust {
  if (origin.type === 'empty') return { type: 'trusted', time: now }
  if (origin.type === 'fork' && source) return source
  return { type: 'untrusted' }
}

/** The built-in agents (hidden ones too): a project file with one of their names cannot touch their rules. */
export function isBuiltinAgent(name: string): boolean {
  return Object.hasOwn(AGENTS, name)
}

/** A project file's rule that does not apply until the user trusts the project or reviews it, and why. */
export interface WithheldRule extends PermissionRule {
  agent: string
  /** The file, relative to the project root. */
  path: string
  /**
   * `allow`: only ask and deny apply in an untrusted project. `built-in`: a file cannot change a built-in agent's
   * rules at all there. `unreviewed`: an allow rule of a trusted project's file that the user has not seen yet.
   */
  reason: 'allow' | 'built-in' | 'unreviewed'
  /** The `ask` and `deny` rules after it in its file (they narrow what an allow rule allows). */
  exceptions: RuleException[]
}

/**
 * The project's agent files as they count for its trust (none stored counts as untrusted). Untrusted: a file's
 * `allow` rules (a `tools: {x: true}` entry is one) are withheld and its `ask` and `deny` rules kept in their order,
 * so a file can only make an agent stricter; a file named like a built-in agent keeps none of its rules and not its
 * `model`, so `build`, `plan`, `general` and `explore` keep exactly the rules tabcode gives them and run with the
 * model the user chose (a command's model waits for the user's word too). Trusted: as written, except the `allow`
 * rules the user has not seen (`reviewed-rules.ts`), which are withheld as in an untrusted project. Every rule
 * withheld is listed, for the user; a withheld model is in the review's built-in changes (`reviewProjectFiles`).
 */
export function clampAgentFiles<File extends AgentFile>(files: readonly File[], trust: ProjectTrust | undefined): { files: File[]; withheld: WithheldRule[] } {
  const seenKeys = trust?.type === 'trusted' ? new Set((trust.reviewed ?? []).map(ruleKey)) : undefined
  const withheld: WithheldRule[] = []
  const clamped = files.map((file): File => {
    const rules = file.config.permission ?? []
    const builtIn = isBuiltinAgent(file.name)
    const kept: PermissionRule[] = []
    rules.forEach((rule, index) => {
      const exceptions = rule.action === 'allow' ? exceptionsAfter(rules, index) : []
      const reason = withheldBecause(rule, builtIn, seenKeys, { path: file.path, agent: file.name, permission: rule.permission, pattern: rule.pattern, action: 'allow', exceptions })
      if (reason) withheld.push({ ...rule, agent: file.name, path: file.path, reason, exceptions })
      else kept.push(rule)
    })
    const keepsModel = file.config.model === undefined || !builtIn || seenKeys !== undefined
    if (kept.length === rules.length && keepsModel) return file
    const { permission: _written, model, ...rest } = file.config
    const config: AgentConfig = { ...rest, ...(kept.length ? { permission: kept } : {}), ...(keepsModel && model ? { model } : {}) }
    return { ...file, config }
  })
  return { files: clamped, withheld }
}

/** Why a file's rule waits (undefined: it applies); `seenKeys` holds the keys of the rules seen, in a trusted project. */
function withheldBecause(rule: PermissionRule, builtIn: boolean, seenKeys: Set<string> | undefined, seen: ReviewedRule): WithheldRule['reason'] | undefined {
  if (seenKeys) return rule.action === 'allow' && !seenKeys.has(ruleKey(seen)) ? 'unreviewed' : undefined
  if (builtIn) return 'built-in'
  return rule.action === 'allow' ? 'allow' : undefined
}

/** A project command that runs under an agent or a model of its own, for the trust review and the palette. */
export interface CommandRedirect {
  name: string
  path: string
  agent?: string
  /** `provider/model`, as the file writes it. */
  model?: string
}

/** What a project's files would change once trusted, item by item, for the user deciding whether to trust it. */
export interface ProjectFilesReview {
  /** The rules that apply only in a trusted project (withheld while it is untrusted). */
  rules: WithheldRule[]
  /** Built-in agents a file changes, and what it changes (its rules only once trusted). */
  builtIns: { agent: string; path: string; changes: string[] }[]
  /** Commands that run under another agent or model than the prompt box's. */
  commands: CommandRedirect[]
}

const CHANGES: readonly (readonly [keyof AgentConfig, string])[] = [
  ['permission', 'permissions'],
  ['prompt', 'prompt'],
  ['model', 'model'],
  ['mode', 'mode'],
  ['description', 'description'],
  ['steps', 'steps'],
  ['temperature', 'temperature'],
  ['topP', 'top_p'],
  ['disabled', 'switched off'],
  ['hidden', 'hidden'],
]

/** What a file changes in a built-in agent, each in a word or two; the model by name, since the user pays for it. */
function changesOf(config: AgentConfig): string[] {
  return CHANGES.filter(([key]) => config[key] !== undefined).map(([key, label]) =>
    key === 'model' && config.model ? `${label} ${config.model.providerID}/${config.model.modelID}` : label,
  )
}

export function reviewProjectFiles(files: readonly AgentFile[], commands: readonly CommandRedirect[]): ProjectFilesReview {
  return {
    rules: clampAgentFiles(files, { type: 'untrusted' }).withheld,
    builtIns: files
      .filter((file) => isBuiltinAgent(file.name))
      .map((file) => ({ agent: file.name, path: file.path, changes: changesOf(file.config) }))
      .filter((entry) => entry.changes.length > 0),
    commands: commands
      .filter((command) => command.agent !== undefined || command.model !== undefined)
      .map((command) => ({
        name: command.name,
        path: command.path,
        ...(command.agent ? { agent: command.agent } : {}),
        ...(command.model ? { model: command.model } : {}),
      })),
  }
}
