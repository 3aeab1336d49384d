import { describe, expect, it } from 'vitest'
import {
  applyMcpServerInput,
  classifyMcpFailure,
  describeMcpStatus,
  mcpToolName,
  mcpToolOutput,
  readMcpServers,
  sanitizeMcpName,
  serversForAgent,
  summarizeMcpServer,
  withMcpDefaults,
  type McpServerConfig,
} from './mcp'
import { evaluate } from './permission/evaluate'
import { agentRules } from './permission/defaults'
import { AppError } from './errors'
import { resolveAgents } from './agent'
import type { PermissionRule } from './schema'

const ORIGIN = 'https://tabcode.example'
const TOKEN = 'Bearer mcp-secret-0123456789'

const server = (overrides: Partial<McpServerConfig> = {}): McpServerConfig => ({
  type: 'remote',
  name: 'docs',
  url: 'https://mcp.example/mcp',
  headers: [{ name: 'Authorization', value: TOKEN }],
  enabled: true,
  ...overrides,
})

function fieldOf(run: () => unknown): string | undefined {
  try {
    run()
  } catch (error) {
    if (error instanceof AppError) return (error.data as { field: string }).field
    throw error
  }
  return undefined
}

describe('tool names', () => {
  it('are <server>_<tool> with anything but letters, digits, _ and - made _, as opencode names them', () => {
    expect(mcpToolName('docs', 'search')).toBe('docs_search')
    expect(mcpToolName('my docs.v2', 'get/page')).toBe('my_docs_v2_get_page')
    expect(mcpToolName('git-hub', 'list_issues')).toBe('git-hub_list_issues')
    expect(sanitizeMcpName('ünï cødé')).toBe('_n__c_d_')
  })
})

describe('server settings', () => {
  it('adds a server with its URL normalised and its header values stored', () => {
    const [saved] = applyMcpServerInput([], { name: 'docs', url: ' https://mcp.example/mcp ', headers: [{ name: 'Authorization', value: TOKEN }], enabled: true })
    expect(saved).toEqual(server())
  })

  it('keeps a stored header value when the form sends the header without one, and renames in place', () => {
    const other = server({ name: 'other', headers: [] })
    const next = applyMcpServerInput([server(), other], {
      previous: 'docs',
      name: 'manual',
      url: 'https://mcp.example/mcp',
      headers: [{ name: 'authorization' }],
      enabled: false,
      agents: ['build'],
    })
    expect(next.map((entry) => entry.name)).toEqual(['manual', 'other'])
    expect(next[0]).toMatchObject({ headers: [{ name: 'authorization', value: TOKEN }], enabled: false, agents: ['build'] })
  })

  it('says which field is wrong', () => {
    expect(fieldOf(() => applyMcpServerInput([], { name: 'x', url: 'ftp://host/mcp', headers: [], enabled: true }))).toBe('url')
    expect(fieldOf(() => applyMcpServerInput([], { name: 'x', url: 'not a url', headers: [], enabled: true }))).toBe('url')
    expect(fieldOf(() => applyMcpServerInput([], { name: 'x', url: 'https://user:pw@host/mcp', headers: [], enabled: true }))).toBe('url')
    expect(fieldOf(() => applyMcpServerInput([], { name: '', url: 'https://host/mcp', headers: [], enabled: true }))).toBe('name')
    // Two names that would give the same tool names.
    expect(fieldOf(() => applyMcpServerInput([server({ name: 'my docs' })], { name: 'my.docs', url: 'https://host/mcp', headers: [], enabled: true }))).toBe('name')
    expect(fieldOf(() => applyMcpServerInput([], { name: 'x', url: 'https://host/mcp', headers: [{ name: 'A' }], enabled: true }))).toBe('headers')
    expect(
      fieldOf(() => applyMcpServerInput([], { name: 'x', url: 'https://host/mcp', headers: [{ name: 'A', value: '1' }, { name: 'a', value: '2' }], enabled: true })),
    ).toBe('headers')
    expect(fieldOf(() => applyMcpServerInput([], { name: 'x', url: 'https://host/mcp', headers: [{ name: 'Bad Name', value: '1' }], enabled: true }))).toBe(
      'headers.0.name',
    )
    expect(fieldOf(() => applyMcpServerInput([], { name: 'x', url: 'https://host/mcp', headers: [{ name: 'A', value: 'one\r\nB: two' }], enabled: true }))).toBe(
      'headers.0.value',
    )
    expect(fieldOf(() => applyMcpServerInput([], { previous: 'gone', name: 'x', url: 'https://host/mcp', headers: [], enabled: true }))).toBe('previous')
  })

  it('reads the stored list tolerantly and summarises it without header values', () => {
    expect(readMcpServers([server(), { type: 'stdio', command: 'npx' }, 'junk'])).toEqual([server()])
    expect(readMcpServers(undefined)).toEqual([])
    const summary = summarizeMcpServer(server())
    expect(summary.headers).toEqual([{ name: 'Authorization' }])
    expect(JSON.stringify(summary)).not.toContain('mcp-secret')
  })

  it('gives an agent the enabled servers it may use (all agents by default)', () => {
    const servers = [server(), server({ name: 'off', enabled: false }), server({ name: 'plan-only', agents: ['plan'] })]
    expect(serversForAgent(servers, 'build').map((entry) => entry.name)).toEqual(['docs'])
    expect(serversForAgent(servers, 'plan').map((entry) => entry.name)).toEqual(['docs', 'plan-only'])
  })
})

describe('status', () => {
  it('tells CORS from unreachable by the no-cors probe, and 401/403 as needing auth', () => {
    expect(classifyMcpFailure({ kind: 'network', probe: 'answered', conclusive: true }, ORIGIN)).toEqual({ state: 'cors', origin: ORIGIN })
    expect(classifyMcpFailure({ kind: 'network', probe: 'failed', conclusive: true }, ORIGIN)).toEqual({ state: 'unreachable', maybeCors: false })
    expect(classifyMcpFailure({ kind: 'network', probe: 'failed', conclusive: false }, ORIGIN)).toEqual({ state: 'unreachable', maybeCors: true })
    expect(classifyMcpFailure({ kind: 'http', status: 401, oauth: true }, ORIGIN)).toEqual({ state: 'auth', status: 401, oauth: true })
    expect(classifyMcpFailure({ kind: 'http', status: 403, oauth: false }, ORIGIN)).toEqual({ state: 'auth', status: 403, oauth: false })
    expect(classifyMcpFailure({ kind: 'http', status: 500, oauth: false }, ORIGIN)).toEqual({ state: 'failed', message: 'The server answered HTTP 500.' })
    expect(classifyMcpFailure({ kind: 'timeout', seconds: 15 }, ORIGIN).state).toBe('failed')
    expect(classifyMcpFailure({ kind: 'other', message: 'bad JSON' }, ORIGIN)).toEqual({ state: 'failed', message: 'bad JSON' })
  })

  it('says what each state means and what to do', () => {
    expect(describeMcpStatus({ state: 'connected', tools: ['a_b'] })).toBe('Connected: 1 tool.')
    expect(describeMcpStatus({ state: 'connected', tools: [] })).toBe('Connected: 0 tools.')
    expect(describeMcpStatus({ state: 'cors', origin: ORIGIN })).toContain(`Allow the origin ${ORIGIN}`)
    expect(describeMcpStatus({ state: 'unreachable', maybeCors: false })).toContain('unreachable')
    expect(describeMcpStatus({ state: 'unreachable', maybeCors: true })).toContain('CORS')
    expect(describeMcpStatus({ state: 'auth', status: 401, oauth: false })).toContain('Authorization')
    expect(describeMcpStatus({ state: 'auth', status: 401, oauth: true })).toContain('OAuth')
  })
})

describe('permissions', () => {
  const build = (extra: { file?: PermissionRule[]; user?: PermissionRule[] } = {}) =>
    resolveAgents(
      extra.user ? { build: { permission: extra.user } } : {},
      [],
      undefined,
      extra.file ? [{ name: 'build', path: '.opencode/agent/build.md', config: { permission: extra.file } }] : [],
    ).build!

  it('asks for an MCP tool by default, and other tools keep the defaults', () => {
    const rules = withMcpDefaults(build(), ['docs_search'])
    expect(evaluate('docs_search', '*', rules).action).toBe('ask')
    expect(evaluate('grep', '*', rules).action).toBe('allow')
  })

  it('lets only the user’s own rules from Settings allow an MCP tool, not the agent’s or a project file’s', () => {
    const everything: PermissionRule[] = [{ permission: '*', pattern: '*', action: 'allow' }]
    // A (trusted) project file that allows everything still gets the ask for MCP tools…
    expect(evaluate('docs_search', '*', withMcpDefaults(build({ file: everything }), ['docs_search'])).action).toBe('ask')
    // …while it keeps allowing the other tools it names.
    expect(evaluate('read', '.env', withMcpDefaults(build({ file: everything }), ['docs_search'])).action).toBe('allow')
    // The user's rule in Settings comes after the asks, so it decides.
    const allowed = withMcpDefaults(build({ user: [{ permission: 'docs_*', pattern: '*', action: 'allow' }] }), ['docs_search'])
    expect(evaluate('docs_search', '*', allowed).action).toBe('allow')
    const denied = withMcpDefaults(build({ user: [{ permission: 'docs_*', pattern: '*', action: 'deny' }] }), ['docs_search'])
    expect(evaluate('docs_search', '*', denied).action).toBe('deny')
  })

  it('keeps a tool the agent’s own rules deny denied: explore denies what it does not name', () => {
    const explore = resolveAgents().explore!
    expect(evaluate('docs_search', '*', withMcpDefaults(explore, ['docs_search'])).action).toBe('deny')
    // A file's deny is kept too (a deny makes a rule stricter).
    expect(evaluate('docs_search', '*', withMcpDefaults(build({ file: [{ permission: 'docs_*', pattern: '*', action: 'deny' }] }), ['docs_search'])).action).toBe('deny')
    // explore with the user's allow in Settings: the user decides.
    const allowed = resolveAgents({ explore: { permission: [{ permission: 'docs_search', pattern: '*', action: 'allow' }] } }).explore!
    expect(evaluate('docs_search', '*', withMcpDefaults(allowed, ['docs_search'])).action).toBe('allow')
  })

  it('puts the asks between the agent’s own rules and the user’s', () => {
    const user: PermissionRule = { permission: 'bash', pattern: 'ls *', action: 'allow' }
    const agent = build({ user: [user] })
    const rules = withMcpDefaults(agent, ['x_y'])
    expect(rules.slice(0, agentRules('build').length)).toEqual(agentRules('build'))
    expect(rules.slice(-2)).toEqual([{ permission: 'x_y', pattern: '*', action: 'ask' }, user])
  })
})

describe('tool output', () => {
  it('joins the text parts and turns images and blobs into attachments', () => {
    expect(
      mcpToolOutput([
        { type: 'text', text: 'one' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a', text: 'two' } },
        { type: 'resource', resource: { uri: 'file:///b', blob: 'BBBB', mimeType: 'application/pdf' } },
      ]),
    ).toEqual({
      output: 'one\n\ntwo',
      attachments: [
        { mime: 'image/png', url: 'data:image/png;base64,AAAA' },
        { mime: 'application/pdf', url: 'data:application/pdf;base64,BBBB' },
      ],
    })
  })
})
