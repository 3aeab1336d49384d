import { AGENTS, type AgentConfig, type AgentFile } from '../agent'
import type { PermissionRule, Project, ProjectOrigin, ProjectTrust } from '../schema'

/**
 * Project trust (DESIGN decision 11). opencode can take a project's config at its word because its user cloned the
 * project onto their own disk; a tab opens zips, folders and files from anyone. So a project is the user's to trust:
 * until they do, its own files (`.opencode/agent(s)`, `.opencode/command(s)`) can only make rules stricter.
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

/** A project file's rule that does not apply until the user trusts the project, and why. */
export interface WithheldRule extends PermissionRule {
  agent: string
  /** The file, relative to the project root. */
  path: string
  /** `allow`: only ask and deny apply. `built-in`: a file cannot change a built-in agent's rules at all. */
  reason: 'allow' | 'built-in'
}

/**
 * The project's agent files as they count for its trust. Trusted: as written. Untrusted: a file's `allow` rules
 * (a `tools: {x: true}` entry is one) are withheld and its `ask` and `deny` rules kept in their order, so a file can
 * only make an agent stricter; a file named like a built-in agent keeps none of its rules, so `build`, `plan`,
 * `general` and `explore` keep exactly the rules tabcode gives them. Everything withheld is listed, for the user.
 */
export function clampAgentFiles<File extends AgentFile>(files: readonly File[], trusted: boolean): { files: File[]; withheld: WithheldRule[] } {
  if (trusted) return { files: [...files], withheld: [] }
  const withheld: WithheldRule[] = []
  const clamped = files.map((file): File => {
    const rules = file.config.permission ?? []
    if (!rules.length) return file
    const builtIn = isBuiltinAgent(file.name)
    const kept: PermissionRule[] = []
    for (const rule of rules) {
      if (builtIn || rule.action === 'allow') withheld.push({ ...rule, agent: file.name, path: file.path, reason: builtIn ? 'built-in' : 'allow' })
      else kept.push(rule)
    }
    const { permission: _written, ...rest } = file.config
    const config: AgentConfig = kept.length ? { ...rest, permission: kept } : rest
    return { ...file, config }
  })
  return { files: clamped, withheld }
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

export function reviewProjectFiles(files: readonly AgentFile[], commands: readonly CommandRedirect[]): ProjectFilesReview {
  return {
    rules: clampAgentFiles(files, false).withheld,
    builtIns: files
      .filter((file) => isBuiltinAgent(file.name))
      .map((file) => ({ agent: file.name, path: file.path, changes: CHANGES.filter(([key]) => file.config[key] !== undefined).map(([, label]) => label) }))
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
