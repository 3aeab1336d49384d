import { describe, expect, it } from 'vitest'
import {
  applyMcpServerInput,
  canonicalJson,
  classifyMcpFailure,
  describeMcpStatus,
  mcpToolName,
  nameMcpTools,
  pinMcpTool,
  RESERVED_MCP_NAMES,
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

describe('tool names that collide', () => {
  it('refuses both tools of one server whose names become one, and offers the rest', () => {
    const [hostile] = nameMcpTools([{ server: 'hostile', tools: ['a.b', 'note', 'a_b'] }])
    expect(hostile!.offered).toEqual([{ tool: 'note', name: 'hostile_note' }])
    expect(hostile!.collisions).toEqual([{ name: 'hostile_a_b', tools: ['a.b', 'a_b'], elsewhere: [], builtin: false }])
  })

  it('refuses tools of two servers that meet under one name, naming the other server', () => {
    const [a, ab] = nameMcpTools([
      { server: 'a', tools: ['b_c', 'x'] },
      { server: 'a_b', tools: ['c'] },
    ])
    expect(a!.offered.map((tool) => tool.name)).toEqual(['a_x'])
    expect(a!.collisions).toEqual([{ name: 'a_b_c', tools: ['b_c'], elsewhere: [{ server: 'a_b', tool: 'c' }], builtin: false }])
    expect(ab!.offered).toEqual([])
    expect(ab!.collisions).toEqual([{ name: 'a_b_c', tools: ['c'], elsewhere: [{ server: 'a', tool: 'b_c' }], builtin: false }])
  })

  it('compares without case, since a call is repaired by lowercasing its name', () => {
    const [docs] = nameMcpTools([{ server: 'docs', tools: ['Search', 'search'] }])
    expect(docs!.offered).toEqual([])
    expect(docs!.collisions[0]).toMatchObject({ tools: ['Search', 'search'] })
  })

  it('refuses a name the built-in rules decide: plan_enter would be allowed by the build agent, apply_patch asks as edit', () => {
    expect(RESERVED_MCP_NAMES).toEqual(expect.arrayContaining(['plan_enter', 'plan_exit', 'external_directory', 'doom_loop', 'apply_patch']))
    const [plan, apply] = nameMcpTools([
      { server: 'plan', tools: ['enter', 'list'] },
      { server: 'apply', tools: ['patch'] },
    ])
    expect(plan!.offered.map((tool) => tool.name)).toEqual(['plan_list'])
    expect(plan!.collisions).toEqual([{ name: 'plan_enter', tools: ['enter'], elsewhere: [], builtin: true }])
    expect(apply!.collisions).toEqual([{ name: 'apply_patch', tools: ['patch'], elsewhere: [], builtin: true }])
    // A caller that knows more names (the built-in tools) adds them.
    expect(nameMcpTools([{ server: 'my', tools: ['tool'] }], ['my_tool'])[0]!.offered).toEqual([])
  })

  it('says in the status which names collided', () => {
    const text = describeMcpStatus({
      state: 'connected',
      tools: ['hostile_note'],
      collisions: [
        { name: 'hostile_a_b', tools: ['a.b', 'a_b'], elsewhere: [], builtin: false },
        { name: 'a_b_c', tools: ['c'], elsewhere: [{ server: 'a', tool: 'b_c' }], builtin: false },
        { name: 'plan_enter', tools: ['enter'], elsewhere: [], builtin: true },
      ],
    })
    expect(text).toBe(
      'Connected: 1 tool. Not offered, because their names collide: “a.b” and “a_b” would both be named hostile_a_b; “c” and “b_c” of the server a would both be named a_b_c; “enter” would be named plan_enter, which tabcode uses itself.',
    )
  })
})

describe('pinned definitions', () => {
  it('pin the description and the schema as canonical JSON, whatever order the server sent its keys in', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}')
    const one = pinMcpTool('docs', { name: 'search', description: 'Searches.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } })
    const two = pinMcpTool('docs', { name: 'search', description: 'Searches.', inputSchema: { properties: { q: { type: 'string' } }, type: 'object' } })
    expect(one).toEqual(two)
    expect(one).toEqual({ type: 'mcp', server: 'docs', tool: 'search', description: 'Searches.', inputSchema: '{"properties":{"q":{"type":"string"}},"type":"object"}' })
    expect(pinMcpTool('docs', { name: 'bare', inputSchema: {} }).description).toBe('')
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

  it('refuses plain http to another machine with a clear message, and takes https anywhere and http on this machine', () => {
    for (const url of ['http://mcp.example/mcp', 'http://10.0.0.5:8080/mcp', 'http://192.168.1.2/mcp', 'http://127.0.0.1.example/mcp']) {
      expect(() => applyMcpServerInput([], { name: 'x', url, headers: [], enabled: true }), url).toThrow(/is not https/)
      expect(fieldOf(() => applyMcpServerInput([], { name: 'x', url, headers: [], enabled: true }))).toBe('url')
    }
    for (const url of ['https://mcp.example/mcp', 'http://127.0.0.1:8790/mcp', 'http://localhost:3000/mcp', 'http://[::1]:3000/mcp']) {
      expect(applyMcpServerInput([], { name: 'x', url, headers: [], enabled: true })[0]!.url).toBe(new URL(url).href)
    }
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
    expect(classifyMcpFailure({ kind: 'insecure', url: 'http://auth.example/token' }, ORIGIN)).toEqual({ state: 'insecure', url: 'http://auth.example/token' })
  })

  it('says what each state means and what to do', () => {
    expect(describeMcpStatus({ state: 'connected', tools: ['a_b'] })).toBe('Connected: 1 tool.')
    expect(describeMcpStatus({ state: 'connected', tools: [] })).toBe('Connected: 0 tools.')
    expect(describeMcpStatus({ state: 'cors', origin: ORIGIN })).toContain(`Allow the origin ${ORIGIN}`)
    expect(describeMcpStatus({ state: 'unreachable', maybeCors: false })).toContain('unreachable')
    expect(describeMcpStatus({ state: 'unreachable', maybeCors: true })).toContain('CORS')
    expect(describeMcpStatus({ state: 'auth', status: 401, oauth: false })).toContain('Authorization')
    expect(describeMcpStatus({ state: 'auth', status: 401, oauth: true })).toContain('OAuth')
    expect(describeMcpStatus({ state: 'insecure', url: 'http://mcp.example/mcp' })).toBe(
      'Not connected: http://mcp.example/mcp is not an https address. tabcode talks to MCP servers, and the sign-in they point to, only over https:// (plain http:// only to this machine: localhost, 127.0.0.1 or ::1).',
    )
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
