import { describe, expect, it } from 'vitest'
import type { McpServerConfig } from '../core/mcp'
import { evaluate } from '../core/permission/evaluate'
import type { PermissionRequest } from '../core/ports'
import { createMcpHub, McpConnectError } from '../mcp/hub'
import { loadHistory } from '../store/message-store'
import { createUserMessage } from '../store/prompt'
import { createSession } from '../store/session-store'
import { testWorkspacePorts } from '../testing/loop-dependencies'
import { dictionaryConnection as dictionary, mcpConfig as config } from '../testing/mcp-fixtures'
import { scriptedModel, textReply, toolReply } from '../testing/scripted-model'
import { makeTestContext } from '../testing/test-context'
import { ToolRegistry } from '../tools/registry'
import { runLoop, type LoopDependencies } from './loop'
import type { PermissionGate } from './turn-services'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

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
  let serverReads = 0
  const hub = createMcpHub({
    servers: async () => (serverReads++, options.servers ?? [config('dict')]),
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
  return { main, calls, asked, tool: parts.find((part) => part.type === 'tool'), serverReads }
}

describe('an MCP tool in the loop', () => {
  it('is offered to the model, asks under its own name (ask by default), and its text goes back as the result', async () => {
    const { main, calls, asked, tool } = await turn({ input: { word: 'zephyr' } })
    const offered = (main.model.doStreamCalls[0]?.tools ?? []).map((entry) => entry.name)
    expect(offered).toContain('dict_lookup')
    expect(offered).toContain('read')
    expect(asked).toEqual([
      {
        request: {
          permission: 'dict_lookup',
          patterns: ['*'],
          always: ['*'],
          metadata: { server: 'dict', tool: 'lookup', input: { word: 'zephyr' } },
          // The definition the model was given, which an "always" answer pins.
          tool: {
            type: 'mcp',
            server: 'dict',
            tool: 'lookup',
            description: 'Looks a word up.',
            inputSchema: '{"$schema":"draft-07","properties":{"word":{"type":"string"}},"required":["word"]}',
          },
        },
        action: 'ask',
      },
    ])
    expect(calls).toEqual([{ name: 'lookup', input: { word: 'zephyr' } }])
    expect(tool?.type === 'tool' && tool.state.status === 'completed' ? tool.state.output : undefined).toBe('zephyr: a word.\n\nSource: test.')
    expect(JSON.stringify(main.model.doStreamCalls[1]?.prompt)).toContain('zephyr: a word.')
  })

  it('reads the servers’ configuration once a turn, and offers their tools on every step', async () => {
    const { main, serverReads } = await turn({ input: { word: 'zephyr' } })
    expect(main.model.doStreamCalls).toHaveLength(2)
    for (const call of main.model.doStreamCalls) expect((call.tools ?? []).map((entry) => entry.name)).toContain('dict_lookup')
    expect(serverReads).toBe(1)
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
