import { describe, expect, it } from 'vitest'
import type { McpServerConfig } from '../../core/mcp'
import { evaluate } from '../../core/permission/evaluate'
import type { PermissionRequest } from '../../core/ports'
import { ToolRegistry } from '../../tools/registry'
import { createUserMessage } from '../../store/prompt'
import { loadHistory } from '../../store/message-store'
import { createSession } from '../../store/session-store'
import { makeTestContext } from '../../testing/test-context'
import { testWorkspacePorts } from '../../testing/loop-dependencies'
import { scriptedModel, textReply, toolReply } from '../../testing/scripted-model'
import { runLoop, type LoopDependencies } from '../loop'
import type { PermissionGate } from '../turn-services'
import { createMcpHub, McpConnectError, MCP_RETRY_MS, type McpConnection, type McpConnector } from './hub'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

const config = (name: string, overrides: Partial<McpServerConfig> = {}): McpServerConfig => ({
  type: 'remote',
  name,
  url: `https://${name}.example/mcp`,
  headers: [],
  enabled: true,
  ...overrides,
})

function dictionary(calls: unknown[] = []): McpConnection {
  return {
    tools: [{ name: 'lookup', description: 'Looks a word up.', inputSchema: { $schema: 'draft-07', properties: { word: { type: 'string' } }, required: ['word'] } }],
    call: async (name, input) => {
      calls.push({ name, input })
      if (input.word === 'crash') throw new Error('socket hang up; sent Authorization: Bearer hub-secret-0123456789')
      if (input.word === 'fail') return { content: [{ type: 'text', text: 'No such word.' }], isError: true }
      return { content: [{ type: 'text', text: `${String(input.word)}: a word.` }, { type: 'text', text: 'Source: test.' }] }
    },
    close: async () => {},
  }
}

describe('the MCP hub', () => {
  it('connects each enabled server once, names its tools, and explains a failing one without breaking the others', async () => {
    let connects = 0
    const connect: McpConnector = async (server) => {
      connects++
      if (server.name === 'down') throw new McpConnectError({ state: 'unreachable', maybeCors: false })
      return dictionary()
    }
    const servers = [config('dict'), config('down'), config('off', { enabled: false })]
    const hub = createMcpHub({ servers: async () => servers, connect })
    expect(await hub.status()).toEqual([
      { name: 'dict', status: { state: 'connected', tools: ['dict_lookup'] } },
      { name: 'down', status: { state: 'unreachable', maybeCors: false } },
      { name: 'off', status: { state: 'disabled' } },
    ])
    const tools = await hub.tools('build')
    expect(tools.map((tool) => tool.id)).toEqual(['dict_lookup'])
    // The server's schema as the model's, without its dialect line.
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] })
    expect(connects).toBe(2)
    await hub.status({ refresh: true })
    expect(connects).toBe(4)
  })

  it('tries a failed server again after a while, and reconnects when its settings change', async () => {
    let now = 0
    let connects = 0
    let servers = [config('dict')]
    const connect: McpConnector = async () => {
      connects++
      if (connects === 1) throw new Error('boom')
      return dictionary()
    }
    const hub = createMcpHub({ servers: async () => servers, connect, now: () => now })
    expect(await hub.tools('build')).toEqual([])
    expect(await hub.status()).toEqual([{ name: 'dict', status: { state: 'failed', message: 'boom' } }])
    expect(connects).toBe(1)
    now += MCP_RETRY_MS + 1
    expect((await hub.tools('build')).map((tool) => tool.id)).toEqual(['dict_lookup'])
    servers = [config('dict', { headers: [{ name: 'Authorization', value: 'Bearer new-token' }] })]
    await hub.tools('build')
    expect(connects).toBe(3)
  })

  it('offers a server only to the agents it is for', async () => {
    const hub = createMcpHub({ servers: async () => [config('dict', { agents: ['plan'] })], connect: async () => dictionary() })
    expect(await hub.tools('build')).toEqual([])
    expect((await hub.tools('plan')).map((tool) => tool.id)).toEqual(['dict_lookup'])
  })
})

/** A turn whose model calls dict_lookup, under the real rules of the build agent, the user answering `reply`. */
async function turn(options: { input: Record<string, unknown>; servers?: McpServerConfig[]; reply?: 'once' | 'reject' }) {
  const test = makeTestContext()
  const calls: unknown[] = []
  const asked: { request: PermissionRequest; action: string }[] = []
  const main = scriptedModel([toolReply([{ id: 'call_1', name: 'dict_lookup', input: options.input }]), textReply('Done.')])
  const small = scriptedModel([textReply('A title')], 'mock-small')
  const permissions: PermissionGate = {
    check: async ({ request, agentRules }) => {
      const action = evaluate(request.permission, '*', agentRules).action
      asked.push({ request, action })
      if (action === 'ask' && options.reply === 'reject') throw new Error('The user rejected permission to use this specific tool call.')
      return undefined
    },
    hiddenTools: () => [],
  }
  const hub = createMcpHub({
    servers: async () => options.servers ?? [config('dict')],
    connect: async (server) => {
      if (server.name === 'down') throw new McpConnectError({ state: 'unreachable', maybeCors: false })
      return dictionary(calls)
    },
  })
  const dependencies: LoopDependencies = {
    store: test.context,
    models: {
      resolve: async (reference) => ({
        model: reference.modelID === 'mock-small' ? small.model : main.model,
        providerID: reference.providerID,
        modelID: reference.modelID,
        limit: { context: 100_000, output: 4_000 },
        cost: { input: 0, output: 0 },
      }),
      smallModel: async () => ({ providerID: 'mock', modelID: 'mock-small' }),
    },
    tools: new ToolRegistry(),
    mcp: hub,
    permissions,
    retryLimit: async () => 0,
    sleep: async () => {},
    setStatus: () => {},
    compaction: async () => ({ auto: false, prune: false }),
    ...testWorkspacePorts({ now: test.context.now }),
  }
  const session = await createSession(test.context, { projectID: 'prj_test' })
  await createUserMessage(test.context, { sessionID: session.id, parts: [{ type: 'text', text: 'Look it up' }], model: MODEL })
  await runLoop(dependencies, session.id, { signal: new AbortController().signal })
  const parts = (await loadHistory(test.context, session.id)).flatMap((entry) => entry.parts)
  return { main, calls, asked, tool: parts.find((part) => part.type === 'tool') }
}

describe('an MCP tool in the loop', () => {
  it('is offered to the model, asks under its own name (ask by default), and its text goes back as the result', async () => {
    const { main, calls, asked, tool } = await turn({ input: { word: 'zephyr' } })
    const offered = (main.model.doStreamCalls[0]?.tools ?? []).map((entry) => entry.name)
    expect(offered).toContain('dict_lookup')
    expect(offered).toContain('read')
    expect(asked).toEqual([{ request: { permission: 'dict_lookup', patterns: ['*'], always: ['*'], metadata: { server: 'dict', tool: 'lookup', input: { word: 'zephyr' } } }, action: 'ask' }])
    expect(calls).toEqual([{ name: 'lookup', input: { word: 'zephyr' } }])
    expect(tool?.type === 'tool' && tool.state.status === 'completed' ? tool.state.output : undefined).toBe('zephyr: a word.\n\nSource: test.')
    expect(JSON.stringify(main.model.doStreamCalls[1]?.prompt)).toContain('zephyr: a word.')
  })

  it('a tool error from the server is an error the model sees', async () => {
    const { main, tool } = await turn({ input: { word: 'fail' } })
    expect(tool?.type === 'tool' && tool.state.status === 'error' ? tool.state.error : undefined).toContain('No such word.')
    expect(JSON.stringify(main.model.doStreamCalls[1]?.prompt)).toContain('No such word.')
  })

  it('a failed call says which server failed, without the header values', async () => {
    const { tool } = await turn({ input: { word: 'crash' }, servers: [config('dict', { headers: [{ name: 'Authorization', value: 'Bearer hub-secret-0123456789' }] })] })
    const error = tool?.type === 'tool' && tool.state.status === 'error' ? tool.state.error : ''
    expect(error).toContain('The MCP server dict failed: socket hang up')
    expect(error).not.toContain('hub-secret')
  })

  it('a rejected call never reaches the server', async () => {
    const { calls, tool } = await turn({ input: { word: 'zephyr' }, reply: 'reject' })
    expect(calls).toEqual([])
    expect(tool?.type === 'tool' && tool.state.status).toBe('error')
  })

  it('a server that cannot connect leaves its tools out and the turn runs', async () => {
    const { main, tool } = await turn({ input: { word: 'x' }, servers: [config('down')] })
    const offered = (main.model.doStreamCalls[0]?.tools ?? []).map((entry) => entry.name)
    expect(offered.some((name) => name.startsWith('down_'))).toBe(false)
    // The call is to a tool that is not there: `invalid` answers it, and the model carries on.
    expect(tool?.type === 'tool' && tool.tool).toBe('invalid')
    expect(main.model.doStreamCalls).toHaveLength(2)
  })
})
