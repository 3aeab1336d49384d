import { AGENT_FOLDERS, agentFileRules, agentName, parseAgentFile, type ParsedAgent, type ProjectAgent, type ProjectAgentProblem } from '../core/project-files/agents'
import { agentAt } from '../core/project-files/agent-paths'
import { allowRulesIn, type AgentFileRules } from '../core/project-files/reviewed-rules'
import { clampAgentFiles, type WithheldRule } from '../core/project-files/trust'
import type { StoreContext } from '../store/context'
import { findProject } from '../store/project-store'
import { WorkspaceError, type FileStat, type Workspace } from '../workspace/workspace'
import { markdownFiles } from './project-markdown'

const decoder = new TextDecoder()
/** An agent file is a prompt: anything this large is not one, and is listed with that problem. */
const MAX_AGENT_BYTES = 256 * 1024

/** What a workspace's agent folders hold: the usable agents (later folders' win by name) and the files that are not. */
export interface ProjectAgents {
  agents: ProjectAgent[]
  problems: ProjectAgentProblem[]
}

/**
 * A parsed file, kept while its size and modification time stay the same: every turn and every picker asks for
 * the project's agents, and listing two folders is cheap where reading and parsing each file again is not.
 */
interface CachedFile {
  size: number
  modified: number
  parsed: ParsedAgent
}
const cache = new WeakMap<Workspace, Map<string, CachedFile>>()

/**
 * The project's agents from `.opencode/agent(s)/**\/*.md`, read from its workspace. The folders are listed on each
 * call, so a file the user adds, edits or deletes counts from the next turn on; unchanged files are not read again.
 */
export async function loadProjectAgents(workspace: Workspace): Promise<ProjectAgents> {
  let files = cache.get(workspace)
  if (!files) cache.set(workspace, (files = new Map()))
  const seen = new Set<string>()
  const byName = new Map<string, ParsedAgent>()
  for (const folder of AGENT_FOLDERS) {
    const base = `${workspace.root}/${folder}`
    for (const file of await markdownFiles(workspace, base)) {
      seen.add(file.path)
      const relative = file.path.slice(base.length + 1)
      const name = agentName(relative)
      const cached = files.get(file.path)
      if (cached && cached.size === file.size && cached.modified === file.modified) {
        byName.set(name, cached.parsed)
        continue
      }
      const parsed = await readAgentFile(workspace, file, name, `${folder}/${relative}`)
      files.set(file.path, { size: file.size, modified: file.modified, parsed })
      byName.set(name, parsed)
    }
  }
  for (const path of files.keys()) if (!seen.has(path)) files.delete(path)
  const parsed = [...byName.values()]
  return {
    agents: parsed.flatMap((entry) => (entry.type === 'agent' ? [entry.agent] : [])),
    problems: parsed.flatMap((entry) => (entry.type === 'problem' ? [entry.problem] : [])),
  }
}

async function readAgentFile(workspace: Workspace, file: FileStat, name: string, shown: string): Promise<ParsedAgent> {
  if (file.size > MAX_AGENT_BYTES) {
    return { type: 'problem', problem: { name, path: shown, problem: `${shown}: it is ${file.size} bytes, over the ${MAX_AGENT_BYTES / 1024} KB an agent file may be` } }
  }
  try {
    return parseAgentFile(name, shown, decoder.decode(await workspace.readFile(file.path)))
  } catch (error) {
    return { type: 'problem', problem: { name, path: shown, problem: `${shown}: it could not be read (${error instanceof Error ? error.message : String(error)})` } }
  }
}

/** A project's agents as its trust lets them count, its files that cannot be used, and the rules withheld. */
export interface TrustedProjectAgents extends ProjectAgents {
  /** The files' rules that apply only once the user trusts the project (in a trusted one: reviews them). */
  withheld: WithheldRule[]
}

/**
 * The project's agents from its workspace, as its trust lets them count: in a project the user has not trusted
 * (or one not found) the files can only make rules stricter, and in a trusted one an allow rule applies once the
 * user has seen it (`clampAgentFiles`).
 */
export async function projectAgentsFor(store: StoreContext, projectID: string, workspace: Workspace): Promise<TrustedProjectAgents> {
  const [project, loaded] = await Promise.all([findProject(store, projectID), loadProjectAgents(workspace)])
  const { files, withheld } = clampAgentFiles(loaded.agents, project?.trust)
  return { agents: files, problems: loaded.problems, withheld }
}

/** The agents of a project whose workspace may fail to open: without it there are only the others. */
export async function projectAgentsOf(store: StoreContext, projectID: string, workspace: () => Promise<Workspace>): Promise<ProjectAgent[]> {
  const opened = await workspace().catch(() => undefined)
  if (!opened) return []
  return (await projectAgentsFor(store, projectID, opened).catch(() => ({ agents: [] }))).agents
}

/**
 * The allow rules of the agent file at `path` (relative to the project root) with `content`, for the user's review:
 * read whether or not its agent can be used, so the rules of a file with a misspelt key or over the size limit are
 * known for when it is fixed. Only the front matter of an over-large file is read: the lines within the limit.
 */
export function agentFileRulesOf(path: string, content: string | Uint8Array): AgentFileRules {
  const name = agentAt(path)
  if (name === undefined) return { type: 'none' }
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content
  let text = decoder.decode(bytes.byteLength > MAX_AGENT_BYTES ? bytes.subarray(0, MAX_AGENT_BYTES) : bytes)
  // Cut at a line's end, so the front matter's closing line is read whole or not at all.
  if (bytes.byteLength > MAX_AGENT_BYTES) text = text.slice(0, text.lastIndexOf('\n') + 1)
  const rules = agentFileRules(text)
  return rules ? { type: 'rules', rules: allowRulesIn(path, name, rules) } : { type: 'unreadable' }
}

/** The allow rules of the agent file at `path` (relative to the project root) as it is now (`none`: no such file). */
export async function agentFileRulesIn(workspace: Workspace, path: string): Promise<AgentFileRules> {
  if (agentAt(path) === undefined) return { type: 'none' }
  try {
    return agentFileRulesOf(path, await workspace.readFile(`${workspace.root}/${path}`))
  } catch (error) {
    if (error instanceof WorkspaceError && error.code === 'not-found') return { type: 'none' }
    throw error
  }
}
