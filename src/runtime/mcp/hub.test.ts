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
import { describeMcpStatus } from '../../core/mcp-status'
import { createMcpHub, McpConnectError, McpReplyError, MCP_RETRY_MS, type McpConnection, type McpConnector } from './hub'

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

  it('never connects to a server stored with plain http to another machine, and says why', async () => {
    let connects = 0
    const connect: McpConnector = async () => {
      connects++
      return dictionary()
    }
    const hub = createMcpHub({ servers: async () => [config('old', { url: 'http://mcp.example/mcp' }), config('local', { url: 'http://127.0.0.1:8790/mcp' })], connect })
    expect(await hub.status()).toEqual([
      { name: 'old', status: { state: 'insecure', url: 'http://mcp.example/mcp' } },
      { name: 'local', status: { state: 'connected', tools: ['local_lookup'] } },
    ])
    expect((await hub.tools('build')).map((tool) => tool.id)).toEqual(['local_lookup'])
    expect(connects).toBe(1)
  })

  it('refuses tools whose names collide, on one server or across two, says so, and offers the rest', async () => {
    const listing = (names: string[]): McpConnection => ({
      tools: names.map((name) => ({ name, description: `The ${name} tool.`, inputSchema: {} })),
      call: async (name) => ({ content: [{ type: 'text', text: `${name} ran.` }] }),
      close: async () => {},
    })
    const servers = [config('hostile'), config('a'), config('a_b', { agents: ['plan'] })]
    const lists: Record<string, string[]> = { hostile: ['a.b', 'note', 'a_b'], a: ['b_c', 'x'], a_b: ['c'] }
    const hub = createMcpHub({ servers: async () => servers, connect: async (server) => listing(lists[server.name]!), reserved: ['hostile_note'] })
    expect(await hub.status()).toEqual([
      {
        name: 'hostile',
        status: {
          state: 'connected',
          tools: [],
          collisions: [
            { name: 'hostile_a_b', tools: ['a.b', 'a_b'], elsewhere: [], builtin: false },
            { name: 'hostile_note', tools: ['note'], elsewhere: [], builtin: true },
          ],
        },
      },
      // Names collide among the servers offered together: build is not offered a_b, so a's b_c is its own there, and
      // Settings says the collision is plan's alone; a_b is offered to plan only, so its c is not offered at all.
      {
        name: 'a',
        status: { state: 'connected', tools: ['a_b_c', 'a_x'], collisions: [{ name: 'a_b_c', tools: ['b_c'], elsewhere: [{ server: 'a_b', tool: 'c' }], builtin: false, agents: ['plan'] }] },
      },
      { name: 'a_b', status: { state: 'connected', tools: [], collisions: [{ name: 'a_b_c', tools: ['c'], elsewhere: [{ server: 'a', tool: 'b_c' }], builtin: false }] } },
    ])
    expect((await hub.tools('build')).map((tool) => tool.id)).toEqual(['a_b_c', 'a_x'])
    expect((await hub.tools('plan')).map((tool) => tool.id)).toEqual(['a_x'])
  })

  it('says a tool is offered exactly when some agent’s turn is offered it', async () => {
    const listing = (names: string[]): McpConnection => ({
      tools: names.map((name) => ({ name, inputSchema: {} })),
      call: async (name) => ({ content: [{ type: 'text', text: `${name} ran.` }] }),
      close: async () => {},
    })
    // docs is for build and plan; docs_search (for plan only) has a tool `x` that docs' `search_x` would be named as.
    const servers = [config('docs', { agents: ['build', 'plan'] }), config('docs_search', { agents: ['plan'] }), config('all')]
    const lists: Record<string, string[]> = { docs: ['search_x', 'read'], docs_search: ['x'], all: ['ping'] }
    const hub = createMcpHub({ servers: async () => servers, connect: async (server) => listing(lists[server.name]!) })
    const statuses = await hub.status()
    const offered = new Set(statuses.flatMap(({ status }) => (status.state === 'connected' ? status.tools : [])))
    const given = new Set<string>()
    for (const agent of ['build', 'plan', 'explore']) for (const tool of await hub.tools(agent)) given.add(tool.id)
    expect([...given].sort()).toEqual([...offered].sort())
    expect(statuses[0]!.status).toEqual({
      state: 'connected',
      tools: ['docs_search_x', 'docs_read'],
      collisions: [{ name: 'docs_search_x', tools: ['search_x'], elsewhere: [{ server: 'docs_search', tool: 'x' }], builtin: false, agents: ['plan'] }],
    })
    expect(describeMcpStatus(statuses[0]!.status)).toBe(
      'Connected: 2 tools. Not offered, because their names collide: “search_x” and “x” of the server docs_search would both be named docs_search_x for the agent plan.',
    )
  })

  it('offers a server only to the agents it is for', async () => {
    const hub = createMcpHub({ servers: async () => [config('dict', { agents: ['plan'] })], connect: async () => dictionary() })
    expect(await hub.tools('build')).toEqual([])
    expect((await hub.tools('plan')).map((tool) => tool.id)).toEqual(['dict_lookup'])
  })
})

describe('a call that is stopped', () => {
  /** A server whose `wait` never answers until its call's signal fires; it counts connections, calls and closes. */
  function slowServer() {
    const seen = { connects: 0, closes: 0, aborted: 0, calls: 0 }
    let called: () => void = () => {}
    /** Resolves once `count` calls of `wait` are running. */
    const running = (count: number) =>
      new Promise<void>((resolve) => {
        called = () => {
          if (seen.calls >= count) resolve()
        }
        called()
      })
    const connect: McpConnector = async () => {
      seen.connects++
      return {
        tools: [{ name: 'wait', inputSchema: {} }, { name: 'now', inputSchema: {} }],
        call: (name, _input, signal) => {
          if (name === 'now') return Promise.resolve({ content: [{ type: 'text', text: 'done' }] })
          seen.calls++
          called()
          return new Promise((_, reject) =>
            signal.addEventListener('abort', () => {
              seen.aborted++
              reject(new Error('aborted'))
            }),
          )
        },
        close: async () => {
          seen.closes++
        },
      }
    }
    return { seen, running, hub: createMcpHub({ servers: async () => [config('slow')], connect }) }
  }

  const context = (abort: AbortSignal) => ({ abort, ask: async () => {} }) as never

  it('passes the stop to the call, drops the connection (ending the session with the server), and connects afresh next time', async () => {
    const { seen, running, hub } = slowServer()
    const [wait] = await hub.tools('build')
    const stop = new AbortController()
    const call = wait!.execute({}, context(stop.signal))
    await running(1)
    stop.abort()
    await expect(call).rejects.toThrow()
    expect(seen.aborted).toBe(1)
    expect(seen.closes).toBe(1)
    const [, now] = await hub.tools('build')
    expect(seen.connects).toBe(2)
    expect((await now!.execute({}, context(new AbortController().signal))).output).toBe('done')
    expect(seen.closes).toBe(1)
  })

  it('closes a dropped connection only once the other calls on it are over', async () => {
    const { seen, running, hub } = slowServer()
    const [wait] = await hub.tools('build')
    const first = new AbortController()
    const second = new AbortController()
    const one = wait!.execute({}, context(first.signal))
    const two = wait!.execute({}, context(second.signal))
    await running(2)
    first.abort()
    await expect(one).rejects.toThrow()
    expect(seen.closes).toBe(0)
    second.abort()
    await expect(two).rejects.toThrow()
    expect(seen.closes).toBe(1)
  })

  it('is over at once even when the call ignores its signal', async () => {
    let closes = 0
    let started: () => void = () => {}
    const calling = new Promise<void>((resolve) => (started = resolve))
    const hub = createMcpHub({
      servers: async () => [config('deaf')],
      connect: async () => ({
        tools: [{ name: 'wait', inputSchema: {} }],
        call: () => {
          started()
          return new Promise(() => {})
        },
        close: async () => {
          closes++
        },
      }),
    })
    const [wait] = await hub.tools('build')
    const stop = new AbortController()
    const running = wait!.execute({}, context(stop.signal))
    await calling
    stop.abort()
    await expect(running).rejects.toThrow()
    expect(closes).toBe(1)
  })

  it('a call the server answered with an error keeps the connection; only a transport failure drops it', async () => {
    let connects = 0
    const hub = createMcpHub({
      servers: async () => [config('strict')],
      connect: async () => {
        connects++
        return {
          tools: [{ name: 'pick', inputSchema: {} }],
          call: async (_name, input) => {
            if (input.n === undefined) throw new McpReplyError('Invalid params: n is required', -32602)
            if (input.n === 'drop') throw new TypeError('Failed to fetch')
            return { content: [{ type: 'text', text: `Picked ${String(input.n)}.` }] }
          },
          close: async () => {},
        }
      },
    })
    const [pick] = await hub.tools('build')
    const signal = new AbortController().signal
    await expect(pick!.execute({}, context(signal))).rejects.toThrow('The MCP server strict refused the call: Invalid params: n is required')
    expect((await pick!.execute({ n: 1 }, context(signal))).output).toBe('Picked 1.')
    await hub.tools('build')
    expect(connects).toBe(1)
    await expect(pick!.execute({ n: 'drop' }, context(signal))).rejects.toThrow('The MCP server strict failed: Failed to fetch')
    await hub.tools('build')
    expect(connects).toBe(2)
  })

  it('a failed call drops its own connection, never a newer one', async () => {
    let connects = 0
    let closes = 0
    const hub = createMcpHub({
      servers: async () => [config('flaky')],
      connect: async () => {
        const id = ++connects
        return {
          tools: [{ name: 'fail', inputSchema: {} }],
          call: async () => {
            throw new Error(`connection ${id} broke`)
          },
          close: async () => {
            closes++
          },
        }
      },
    })
    const [old] = await hub.tools('build')
    await expect(old!.execute({}, context(new AbortController().signal))).rejects.toThrow('connection 1 broke')
    const [fresh] = await hub.tools('build')
    expect(connects).toBe(2)
    // A late failure on the first connection leaves the second in place.
    await expect(old!.execute({}, context(new AbortController().signal))).rejects.toThrow('connection 1 broke')
    await hub.tools('build')
    expect(connects).toBe(2)
    await expect(fresh!.execute({}, context(new AbortController().signal))).rejects.toThrow('connection 2 broke')
    expect(closes).toBe(2)
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
