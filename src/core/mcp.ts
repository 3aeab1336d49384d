import { z } from 'zod'
import { describeIssues, InputError } from './errors'
import type { Agent } from './agent'
import { AGENT_RULES, DEFAULT_RULES } from './permission/defaults'
import { EDIT_TOOLS, evaluate } from './permission/evaluate'
import type { PermissionRule } from './schema/common'
import type { PinnedTool } from './schema/workspace'
import type { McpStatus, McpToolCollision } from './mcp-status'
import { describeRefusedMcpUrl, isAllowedMcpUrl, McpRedirectError } from './mcp-url'

export { describeMcpStatus, type McpServerStatus, type McpStatus, type McpToolCollision } from './mcp-status'

/**
 * Remote MCP servers (issue 19): what the user configures in Settings, how their tools are named for the model, and
 * how a failed connection is explained. The client itself (`@ai-sdk/mcp`) lives in the engine; this is the pure part.
 */

/** Header names as HTTP allows them (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const HeaderSchema = z.object({
  name: z.string().regex(HEADER_NAME, 'a header name may use letters, digits and !#$%&\'*+.^_`|~-'),
  // A value is sent as is; a line break would split it into another header.
  value: z.string().regex(/^[^\r\n]*$/, 'a header value must be on one line'),
})

/** One server as stored (a row of the `mcp.servers` setting). Header values are secrets, kept like API keys. */
export const McpServerConfigSchema = z.object({
  type: z.literal('remote'),
  /** The user's name for it; tool names start with it (sanitised). Unique after sanitising. */
  name: z.string().trim().min(1).max(64),
  // http(s) as stored by earlier builds, which took plain http to any host: such a row is still read (so Settings
  // can show and edit it), and the engine refuses to connect to it (`isAllowedMcpUrl`).
  url: z.url({ protocol: /^https?$/ }),
  headers: z.array(HeaderSchema).max(32),
  enabled: z.boolean(),
  /** Which agents may use its tools; absent: every agent. */
  agents: z.array(z.string().min(1)).optional(),
})
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>

export const McpServersSchema = z.array(McpServerConfigSchema).max(50)

/** What Settings sends: a header without a value keeps the stored one (values only go in, like keys). */
export const McpServerInputSchema = z.object({
  /** The server's current name when renaming or editing one; absent for a new server. */
  previous: z.string().optional(),
  name: z.string().trim().min(1, 'a server needs a name').max(64),
  url: z.string().trim().min(1, 'a server needs a URL'),
  headers: z.array(z.object({ name: z.string().trim(), value: z.string().optional() })).max(32),
  enabled: z.boolean(),
  agents: z.array(z.string().min(1)).optional(),
})
export type McpServerInput = z.infer<typeof McpServerInputSchema>

/** A server as the UI sees it: header names, never their values. */
export interface McpServerSummary {
  name: string
  url: string
  headers: { name: string }[]
  enabled: boolean
  agents?: string[]
  /** It holds OAuth tokens from a sign-in (Settings offers Sign out). */
  signedIn?: boolean
}

export function summarizeMcpServer(config: McpServerConfig): McpServerSummary {
  return {
    name: config.name,
    url: config.url,
    headers: config.headers.map((header) => ({ name: header.name })),
    enabled: config.enabled,
    ...(config.agents ? { agents: config.agents } : {}),
  }
}

/** opencode's sanitising of server and tool names: anything but letters, digits, `_` and `-` becomes `_`. */
export function sanitizeMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_')
}

/** The name the model calls a server's tool by, as opencode names it: `<server>_<tool>`, both sanitised. */
export function mcpToolName(server: string, tool: string): string {
  return `${sanitizeMcpName(server)}_${sanitizeMcpName(tool)}`
}

/**
 * Names an MCP tool may never have, whatever its server: those of permissions the built-in rules decide (an MCP tool
 * named `plan_enter` would be allowed by the build agent's rule for entering plan mode, `external_directory` by a rule
 * for paths) and of the tools that ask as `edit`. Built-in tool names are added by the caller that knows them.
 */
export const RESERVED_MCP_NAMES: readonly string[] = [
  ...new Set([...DEFAULT_RULES, ...Object.values(AGENT_RULES).flat()].map((rule) => rule.permission).filter((permission) => permission !== '*')),
  ...EDIT_TOOLS,
  'invalid',
]

/** One server's tools as listed, by their own names, and the agents it is offered to (undefined: every agent). */
export interface McpToolListing {
  server: string
  tools: readonly string[]
  agents?: readonly string[] | undefined
}

/** A server's tools sorted into those offered (with the model's name for each) and those refused for a name collision. */
export interface McpToolNaming {
  server: string
  offered: { tool: string; name: string }[]
  collisions: McpToolCollision[]
}

/**
 * The model's name for each tool of servers offered together, refusing every tool whose name is another's too: two
 * tools of one server (`a.b` and `a_b`), tools of two servers (`a` + `b_c` and `a_b` + `c`), or a reserved name. No
 * tool of a collision is offered, so neither silently wins (nor takes the other's remembered approvals). Names are
 * compared without case, because a call whose name matches no tool is repaired by lowercasing it.
 */
export function nameMcpTools(listings: readonly McpToolListing[], reserved: Iterable<string> = RESERVED_MCP_NAMES): McpToolNaming[] {
  const taken = new Set([...reserved].map((name) => name.toLowerCase()))
  const owners = new Map<string, { server: string; tool: string }[]>()
  for (const listing of listings) {
    for (const tool of listing.tools) {
      const key = mcpToolName(listing.server, tool).toLowerCase()
      owners.set(key, [...(owners.get(key) ?? []), { server: listing.server, tool }])
    }
  }
  return listings.map((listing) => {
    const offered: McpToolNaming['offered'] = []
    const collisions = new Map<string, McpToolCollision>()
    for (const tool of listing.tools) {
      const name = mcpToolName(listing.server, tool)
      const key = name.toLowerCase()
      const all = owners.get(key) ?? []
      if (all.length === 1 && !taken.has(key)) {
        offered.push({ tool, name })
        continue
      }
      if (collisions.has(key)) continue
      collisions.set(key, {
        name,
        tools: all.filter((owner) => owner.server === listing.server).map((owner) => owner.tool),
        elsewhere: all.filter((owner) => owner.server !== listing.server),
        builtin: taken.has(key),
      })
    }
    return { server: listing.server, offered, collisions: [...collisions.values()] }
  })
}

/**
 * Each server's tools as Settings shows them, named as every agent's turn names them: `nameMcpTools` over the servers
 * offered to that agent (`serversForAgent`). A tool is offered when some agent is offered it; a collision names the
 * agents it keeps the tool from, unless it keeps it from every agent the server is offered to.
 */
export function nameMcpToolsForAgents(listings: readonly McpToolListing[], reserved: Iterable<string> = RESERVED_MCP_NAMES): McpToolNaming[] {
  const names = [...reserved]
  // The sets of servers a turn can be offered: each agent some server is for, and every other agent (whose turns get
  // only the servers for all agents). A collision in the latter is among servers every agent is offered, so it is
  // met in every set.
  const agents = [...new Set(listings.flatMap((listing) => listing.agents ?? []))].sort()
  const sets = [
    ...agents.map((agent) => ({ agent, namings: nameMcpTools(listings.filter((listing) => !listing.agents || listing.agents.includes(agent)), names) })),
    { agent: undefined, namings: nameMcpTools(listings.filter((listing) => !listing.agents), names) },
  ]
  return listings.map((listing) => {
    const mine = sets.flatMap(({ agent, namings }) => namings.filter((naming) => naming.server === listing.server).map((naming) => ({ agent, naming })))
    const offered = new Map<string, string>()
    const collisions = new Map<string, McpToolCollision & { refused: Set<string | undefined> }>()
    for (const { agent, naming } of mine) {
      for (const tool of naming.offered) offered.set(tool.tool, tool.name)
      for (const collision of naming.collisions) {
        const key = collision.name.toLowerCase()
        const entry = collisions.get(key) ?? { name: collision.name, tools: [], elsewhere: [], builtin: false, refused: new Set() }
        for (const tool of collision.tools) if (!entry.tools.includes(tool)) entry.tools.push(tool)
        for (const other of collision.elsewhere) {
          if (!entry.elsewhere.some((known) => known.server === other.server && known.tool === other.tool)) entry.elsewhere.push(other)
        }
        entry.builtin ||= collision.builtin
        entry.refused.add(agent)
        collisions.set(key, entry)
      }
    }
    return {
      server: listing.server,
      offered: listing.tools.flatMap((tool) => {
        const name = offered.get(tool)
        return name === undefined ? [] : [{ tool, name }]
      }),
      collisions: [...collisions.values()].map(({ refused, ...collision }) =>
        refused.size === mine.length ? collision : { ...collision, agents: [...refused].filter((agent) => agent !== undefined) },
      ),
    }
  })
}

/**
 * The stored list with one server added or replaced, checked: an https URL (http only to this machine) without
 * credentials in it (they belong in a header), header names once each, a name no other server has after sanitising. Header values left
 * empty keep what was stored under the same name.
 */
export function applyMcpServerInput(servers: readonly McpServerConfig[], raw: unknown): McpServerConfig[] {
  const parsed = McpServerInputSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new InputError(issue?.path.map(String).join('.') || 'server', `Invalid MCP server: ${describeIssues(parsed.error)}`)
  }
  const input = parsed.data
  const current = input.previous === undefined ? undefined : servers.find((server) => server.name === input.previous)
  if (input.previous !== undefined && !current) throw new InputError('previous', `There is no MCP server named “${input.previous}”.`)
  const clash = servers.find((server) => server !== current && sanitizeMcpName(server.name) === sanitizeMcpName(input.name))
  if (clash) throw new InputError('name', `An MCP server named “${clash.name}” exists already; tool names would collide.`)
  const url = checkedUrl(input.url)
  const seen = new Set<string>()
  const headers: McpServerConfig['headers'] = []
  for (const header of input.headers) {
    if (!header.name && !header.value) continue
    const key = header.name.toLowerCase()
    if (seen.has(key)) throw new InputError('headers', `The header “${header.name}” is listed twice.`)
    seen.add(key)
    const value = header.value || current?.headers.find((stored) => stored.name.toLowerCase() === key)?.value
    if (!value) throw new InputError('headers', `The header “${header.name}” needs a value.`)
    headers.push({ name: header.name, value })
  }
  const candidate = {
    type: 'remote' as const,
    name: input.name,
    url,
    headers,
    enabled: input.enabled,
    ...(input.agents ? { agents: input.agents } : {}),
  }
  const checked = McpServerConfigSchema.safeParse(candidate)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw new InputError(issue?.path.map(String).join('.') || 'server', `Invalid MCP server: ${describeIssues(checked.error)}`)
  }
  const next = servers.filter((server) => server !== current)
  const at = current ? servers.indexOf(current) : next.length
  next.splice(at, 0, checked.data)
  return next
}

function checkedUrl(raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new InputError('url', `“${raw}” is not a URL; it should look like https://host/mcp.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InputError('url', 'An MCP server URL must start with https://.')
  if (!isAllowedMcpUrl(url)) throw new InputError('url', describeRefusedMcpUrl('The server URL', url.href))
  if (url.username || url.password) throw new InputError('url', 'Put credentials in a header (such as Authorization), not in the URL.')
  return url.href
}

/** The stored list read tolerantly: a row this build cannot read (a newer build's) is left out, not fatal. */
export function readMcpServers(value: unknown): McpServerConfig[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((row) => {
    const parsed = McpServerConfigSchema.safeParse(row)
    return parsed.success ? [parsed.data] : []
  })
}

/** The enabled servers an agent may use. */
export function serversForAgent(servers: readonly McpServerConfig[], agent: string): McpServerConfig[] {
  return servers.filter((server) => server.enabled && (!server.agents || server.agents.includes(agent)))
}

/** Every header value, for the logger's redaction (they are secrets like API keys). */
export function mcpSecrets(servers: readonly McpServerConfig[]): string[] {
  return servers.flatMap((server) => server.headers.map((header) => header.value))
}

const McpToolCollisionSchema = z.object({
  name: z.string(),
  tools: z.array(z.string()),
  elsewhere: z.array(z.object({ server: z.string(), tool: z.string() })),
  builtin: z.boolean(),
  agents: z.array(z.string()).optional(),
})

/** A server's state as Settings shows it. */
export const McpStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('connected'), tools: z.array(z.string()), collisions: z.array(McpToolCollisionSchema).optional() }),
  z.object({ state: z.literal('disabled') }),
  /** Not connected: `url` (its own, or one it sent the client to) is plain http to another machine. */
  z.object({ state: z.literal('insecure'), url: z.string() }),
  /** The server answers but not to this origin: its CORS headers leave the page out. */
  z.object({ state: z.literal('cors'), origin: z.string() }),
  /** Nothing answered; `maybeCors` when this page cannot tell that from a CORS refusal (COEP hides opaque answers). */
  z.object({ state: z.literal('unreachable'), maybeCors: z.boolean() }),
  /** 401 or 403: it wants credentials (`oauth` when it points at an authorization server). */
  z.object({ state: z.literal('auth'), status: z.number().int(), oauth: z.boolean() }),
  z.object({ state: z.literal('failed'), message: z.string() }),
])
// The page reads statuses through core/mcp-status.ts, which must stay free of zod; the two agree by this check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const statusTypesAgree: Same<z.infer<typeof McpStatusSchema>, McpStatus> = true
void statusTypesAgree

/** What the engine saw of a failed connection: the transport's fetches, and a `no-cors` probe after a network error. */
export type McpObservation =
  | { kind: 'network'; probe: 'answered' | 'failed'; conclusive: boolean }
  | { kind: 'timeout'; seconds: number }
  | { kind: 'http'; status: number; oauth: boolean }
  /** A request it was about to make, or a redirect it followed, went to plain http on another machine. */
  | { kind: 'insecure'; url: string }
  /** A request to `url` was answered with a redirect, which was not followed. */
  | { kind: 'redirect'; url: string }
  | { kind: 'other'; message: string }

/**
 * Why a server could not be used. A fetch that fails with a TypeError while a `no-cors` request to the same URL gets
 * an answer means the server is there but refuses this origin (CORS); both failing means it cannot be reached.
 */
export function classifyMcpFailure(observation: McpObservation, origin: string): McpStatus {
  if (observation.kind === 'network') {
    return observation.probe === 'answered' ? { state: 'cors', origin } : { state: 'unreachable', maybeCors: !observation.conclusive }
  }
  if (observation.kind === 'insecure') return { state: 'insecure', url: observation.url }
  if (observation.kind === 'redirect') return { state: 'failed', message: new McpRedirectError(observation.url).message }
  if (observation.kind === 'timeout') return { state: 'failed', message: `the server did not answer within ${observation.seconds} s.` }
  if (observation.kind === 'http') {
    if (observation.status === 401 || observation.status === 403) return { state: 'auth', status: observation.status, oauth: observation.oauth }
    return { state: 'failed', message: `The server answered HTTP ${observation.status}.` }
  }
  return { state: 'failed', message: observation.message }
}

/** JSON with every object's keys sorted, so that equal values give equal text whatever order a server sent. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null'
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortKeys(record[key])]))
  }
  return value
}

/** A server's tool as an approval pins it: what the model is told about it (description and input schema). */
export function pinMcpTool(server: string, tool: { name: string; description?: string | undefined; inputSchema: Record<string, unknown> }): PinnedTool {
  return { type: 'mcp', server, tool: tool.name, description: tool.description ?? '', inputSchema: canonicalJson(tool.inputSchema) }
}

/**
 * An agent's rules with its MCP tools asking by default (opencode allows them): for each tool, a rule after the
 * agent's own (the defaults, the built-in agent's, a project file's) and before the user's own from Settings, so
 * only the user (a rule in Settings, or an "always" answer) lets an MCP tool run without a dialog; a project file's
 * `allow` does not. The rule asks, or denies when the agent's own rules deny the tool (explore denies everything it
 * does not name).
 */
export function withMcpDefaults(agent: Pick<Agent, 'permission' | 'userRuleCount'>, toolNames: readonly string[]): PermissionRule[] {
  const at = agent.permission.length - (agent.userRuleCount ?? 0)
  const own = agent.permission.slice(0, at)
  const defaults = toolNames.map((permission): PermissionRule => ({
    permission,
    pattern: '*',
    action: evaluate(permission, '*', own).action === 'deny' ? 'deny' : 'ask',
  }))
  return [...own, ...defaults, ...agent.permission.slice(at)]
}

/** An MCP tool result's content as the model reads it: the text parts joined, images and blobs as attachments. */
export interface McpContent {
  type: string
  text?: string
  data?: string
  mimeType?: string
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string }
}

export function mcpToolOutput(content: readonly McpContent[]): { output: string; attachments: { mime: string; url: string }[] } {
  const texts: string[] = []
  const attachments: { mime: string; url: string }[] = []
  for (const item of content) {
    if (item.type === 'text' && typeof item.text === 'string') texts.push(item.text)
    else if ((item.type === 'image' || item.type === 'audio') && item.data && item.mimeType) {
      attachments.push({ mime: item.mimeType, url: `data:${item.mimeType};base64,${item.data}` })
    } else if (item.type === 'resource' && item.resource) {
      if (typeof item.resource.text === 'string') texts.push(item.resource.text)
      else if (item.resource.blob) {
        const mime = item.resource.mimeType ?? 'application/octet-stream'
        attachments.push({ mime, url: `data:${mime};base64,${item.resource.blob}` })
      }
    }
  }
  return { output: texts.join('\n\n'), attachments }
}
