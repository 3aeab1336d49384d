import { describe, expect, it } from 'vitest'
import { dictionaryConnection as dictionary, mcpConfig as config } from '../testing/mcp-fixtures'
import { describeMcpStatus } from '../core/mcp-status'
import { createMcpHub, McpConnectError, McpReplyError, MCP_RETRY_MS, type McpConnection, type McpConnector } from './hub'

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
