import { z } from 'zod'
import type { AgentConfig, AgentMode } from '../agent'
import { EDIT_TOOLS } from '../permission/evaluate'
import { fromConfig, PermissionConfigSchema, type PermissionConfig } from '../permission/config'
import type { PermissionRule } from '../schema'
import { parseFrontMatter } from './front-matter'
import { modelReference } from '../provider/named-model'

export { AGENT_FOLDERS, agentName } from './agent-paths'

/** An agent defined by a markdown file in the project: its name is the file's name, its prompt the file's body. */
export interface ProjectAgent {
  name: string
  /** Relative to the project root, as the user sees it in the Files panel. */
  path: string
  config: AgentConfig
}

/** A project agent file that cannot be used, with what is wrong, worded for the user. */
export interface ProjectAgentProblem {
  name: string
  path: string
  /** Starts with the path; names the line when the parser or the key tells it. */
  problem: string
}

export type ParsedAgent = { type: 'agent'; agent: ProjectAgent } | { type: 'problem'; problem: ProjectAgentProblem }

const MODES = ['primary', 'subagent', 'all'] as const satisfies readonly AgentMode[]

/** opencode's older `tools` map: a tool's name to whether the agent may use it. */
const ToolsSchema = z.record(z.string(), z.boolean())

/** The front matter opencode reads from an agent file; keys it does not know (color, options…) are ignored. */
const AgentFrontMatterSchema = z.object({
  description: z.string().optional(),
  mode: z.enum(MODES).optional(),
  model: z.string().regex(/^[^/\s]+\/\S+$/).optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  steps: z.number().int().min(1).max(10_000).optional(),
  /** opencode's older name for `steps`. */
  maxSteps: z.number().int().min(1).max(10_000).optional(),
  tools: ToolsSchema.optional(),
  permission: PermissionConfigSchema.optional(),
  disable: z.boolean().optional(),
  hidden: z.boolean().optional(),
})

/** What each key must be, for the message when it is not. */
const EXPECTED: Record<string, string> = {
  description: 'text',
  mode: 'primary, subagent or all',
  model: 'provider/model, such as anthropic/claude-sonnet-4',
  temperature: 'a number from 0 to 2',
  top_p: 'a number from 0 to 1',
  steps: 'a whole number from 1 to 10000',
  maxSteps: 'a whole number from 1 to 10000',
  tools: 'a map of tool name to true or false',
  permission: 'allow, ask or deny, or a map of tool to an action or to a map of pattern to an action',
  disable: 'true or false',
  hidden: 'true or false',
}

/**
 * One agent file, or what is wrong with it. A problem never throws: the file is listed with it, and every other
 * agent keeps working.
 */
export function parseAgentFile(name: string, path: string, text: string): ParsedAgent {
  const problem = (reason: string): ParsedAgent => ({ type: 'problem', problem: { name, path, problem: `${path}: ${reason}` } })
  let data: Record<string, unknown>
  let body: string
  try {
    ;({ data, body } = parseFrontMatter(text))
  } catch (error) {
    return problem(error instanceof Error ? error.message : String(error))
  }
  const parsed = AgentFrontMatterSchema.safeParse(data)
  if (!parsed.success) {
    const key = String(parsed.error.issues[0]?.path[0] ?? '')
    const line = keyLine(text, key)
    const shown = key === 'mode' && typeof data.mode === 'string' ? ` (not “${data.mode}”)` : ''
    return problem(`${line ? `line ${line}: ` : ''}\`${key}\` must be ${EXPECTED[key] ?? 'something else'}${shown}`)
  }
  const front = parsed.data
  const steps = front.steps ?? front.maxSteps
  const permission = fileRules(front.tools, front.permission)
  const config: AgentConfig = {
    ...(front.description?.trim() ? { description: front.description.trim() } : {}),
    ...(front.mode ? { mode: front.mode } : {}),
    ...(front.model ? { model: modelReference(front.model) } : {}),
    ...(front.temperature !== undefined ? { temperature: front.temperature } : {}),
    ...(front.top_p !== undefined ? { topP: front.top_p } : {}),
    ...(steps !== undefined ? { steps } : {}),
    ...(body ? { prompt: body } : {}),
    ...(permission.length ? { permission } : {}),
    ...(front.disable ? { disabled: true } : {}),
    ...(front.hidden ? { hidden: true } : {}),
  }
  return { type: 'agent', agent: { name, path, config } }
}

/** A file's rules in the order opencode reads them (`toolRules`). */
function fileRules(tools: Record<string, boolean> | undefined, permission: PermissionConfig | undefined): PermissionRule[] {
  return [...toolRules(tools ?? {}), ...(permission !== undefined ? fromConfig(permission) : [])]
}

/**
 * The rules an agent file's text writes, read even when its other keys are wrong (a misspelt `mode`): once those
 * are fixed, these are the rules that apply. Undefined when they cannot be told: the front matter is not YAML (or
 * not closed), or `tools` or `permission` are not what they must be.
 */
export function agentFileRules(text: string): PermissionRule[] | undefined {
  let data: Record<string, unknown>
  try {
    ;({ data } = parseFrontMatter(text))
  } catch {
    return undefined
  }
  const tools = ToolsSchema.optional().safeParse(data.tools)
  const permission = PermissionConfigSchema.optional().safeParse(data.permission)
  if (!tools.success || !permission.success) return undefined
  return fileRules(tools.data, permission.data)
}

/**
 * The legacy `tools` map as rules, as opencode converts it: true allows, false denies, and the file-changing tools
 * all stand for the `edit` permission. They go before the `permission` rules, which therefore win.
 */
export function toolRules(tools: Record<string, boolean>): PermissionRule[] {
  return Object.entries(tools).map(([tool, enabled]) => ({
    permission: EDIT_TOOLS.includes(tool) ? 'edit' : tool,
    pattern: '*',
    action: enabled ? 'allow' : 'deny',
  }))
}

/** The 1-based line of `key:` at the top level of the front matter, if it is there. */
function keyLine(text: string, key: string): number | undefined {
  if (!key) return undefined
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = new RegExp(`^["']?${escaped}["']?\\s*:`)
  // Line 1 is the opening ---; the front matter ends at the next ---.
  for (let index = 1; index < lines.length && !/^---\s*$/.test(lines[index]!); index++) {
    if (pattern.test(lines[index]!)) return index + 1
  }
  return undefined
}
