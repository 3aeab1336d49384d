import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { McpServerConfig } from '../core/mcp'
// The e2e suite's MCP server (made with @modelcontextprotocol/sdk), in Node.
import { startMcpServer, type McpTestServer } from '../../test-servers/mcp-server.mjs'
import { InsecureMcpUrlError, McpRedirectError } from '../core/mcp-url'
import { mcpConnector, secureMcpFetch } from './client'
import { createMcpHub, McpConnectError } from './hub'

const ORIGIN = 'https://tabcode.example'
const SECRET = 'mcp-secret-0123456789'

const config = (url: string, headers: McpServerConfig['headers'] = []): McpServerConfig => ({ type: 'remote', name: 'dict', url, headers, enabled: true })

let server: McpTestServer
beforeAll(async () => {
  server = await startMcpServer({ port: 0 })
})
afterAll(async () => {
  await server.close()
})

async function failure(connect: Promise<unknown>) {
  const error = await connect.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(McpConnectError)
  return (error as McpConnectError).status
}

describe('connecting with @ai-sdk/mcp', () => {
  it('lists a Streamable HTTP server’s tools and calls one', async () => {
    const connect = mcpConnector({ origin: ORIGIN, opaqueProbe: async () => 'conclusive' })
    const connection = await connect(config(`${server.url}/mcp`, [{ name: 'Authorization', value: `Bearer ${SECRET}` }]))
    expect(connection.tools.map((tool) => tool.name)).toEqual(['lookup_word'])
    const result = await connection.call('lookup_word', { word: 'zephyr' }, new AbortController().signal)
    expect(result.content[0]).toEqual({ type: 'text', text: 'zephyr: a word from the test dictionary.' })
    await connection.close()
  })

  it('falls back to HTTP+SSE when the server refuses Streamable HTTP', async () => {
    const connect = mcpConnector({ origin: ORIGIN, opaqueProbe: async () => 'conclusive' })
    const connection = await connect(config(`${server.url}/sse/mcp`))
    expect(connection.tools.map((tool) => tool.name)).toEqual(['lookup_word'])
    const result = await connection.call('lookup_word', { word: 'breeze' }, new AbortController().signal)
    expect(result.content[0]).toEqual({ type: 'text', text: 'breeze: a word from the test dictionary.' })
    await connection.close()
  })

  it('calls a fetch that fails while a no-cors probe answers a CORS refusal', async () => {
    const fetch = async (_input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.mode === 'no-cors') return new Response(null, { status: 200 })
      throw new TypeError('Failed to fetch')
    }
    const connect = mcpConnector({ fetch, origin: ORIGIN, opaqueProbe: async () => 'conclusive' })
    expect(await failure(connect(config('https://mcp.example/mcp')))).toEqual({ state: 'cors', origin: ORIGIN })
  })

  it('calls a server that answers nothing, even no-cors, unreachable (or maybe CORS when the probe cannot tell)', async () => {
    const fetch = async () => {
      throw new TypeError('Failed to fetch')
    }
    expect(await failure(mcpConnector({ fetch, origin: ORIGIN, opaqueProbe: async () => 'conclusive' })(config('https://mcp.example/mcp')))).toEqual({
      state: 'unreachable',
      maybeCors: false,
    })
    expect(await failure(mcpConnector({ fetch, origin: ORIGIN, opaqueProbe: async () => 'inconclusive' })(config('https://mcp.example/mcp')))).toEqual({
      state: 'unreachable',
      maybeCors: true,
    })
  })

  it('calls 401 and 403 a need for auth, noting when the server points at OAuth', async () => {
    const answer = (status: number, authenticate?: string) => async () =>
      new Response('{}', { status, headers: authenticate ? { 'www-authenticate': authenticate } : {} })
    const connect = (status: number, authenticate?: string) =>
      mcpConnector({ fetch: answer(status, authenticate), origin: ORIGIN, opaqueProbe: async () => 'conclusive' })(config('https://mcp.example/mcp'))
    expect(await failure(connect(401, 'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"'))).toEqual({
      state: 'auth',
      status: 401,
      oauth: true,
    })
    expect(await failure(connect(403))).toEqual({ state: 'auth', status: 403, oauth: false })
  })

  it('gives up on a server that does not answer, saying so', async () => {
    const fetch = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
    const status = await failure(mcpConnector({ fetch, origin: ORIGIN, opaqueProbe: async () => 'conclusive', timeoutMs: 1_000 })(config('https://mcp.example/mcp')))
    expect(status).toEqual({ state: 'failed', message: 'the server did not answer within 1 s.' })
  })

  it('keeps header values out of a failure’s message', async () => {
    const fetch = async () => new Response(`not json, echoing Bearer ${SECRET}`, { status: 200, headers: { 'content-type': 'application/json' } })
    const status = await failure(
      mcpConnector({ fetch, origin: ORIGIN, opaqueProbe: async () => 'conclusive' })(config('https://mcp.example/mcp', [{ name: 'X-Token', value: SECRET }])),
    )
    expect(status.state).toBe('failed')
    expect(JSON.stringify(status)).not.toContain(SECRET)
  })
})

describe('a hostile server', () => {
  const hostile = (): McpServerConfig => ({ type: 'remote', name: 'hostile', url: `${server.url}/hostile/mcp`, headers: [], enabled: true })
  const context = (abort: AbortSignal) => ({ abort, ask: async () => {} }) as never

  it('learns that a stopped call is over: its session ends, so its work on the call is cancelled; the next call connects afresh', async () => {
    server.calls.length = 0
    server.hostile.cancelled.length = 0
    const hub = createMcpHub({ servers: async () => [hostile()], connect: mcpConnector({ origin: ORIGIN, opaqueProbe: async () => 'conclusive' }) })
    const tools = await hub.tools('build')
    // `a.b` and `a_b` would share a name: neither is offered.
    expect(tools.map((tool) => tool.id)).toEqual(['hostile_endless', 'hostile_note'])
    const stop = new AbortController()
    const running = tools[0]!.execute({}, context(stop.signal))
    await vi.waitFor(() => expect(server.calls.map((call) => call.tool)).toEqual(['endless']))
    stop.abort()
    await expect(running).rejects.toThrow()
    // A closed request alone is no cancellation to a server that ignores it: the session's end is.
    await vi.waitFor(() => expect(server.hostile.cancelled).toHaveLength(1))
    expect(server.hostile.closed).not.toHaveLength(0)

    const [, note] = await hub.tools('build')
    expect((await note!.execute({ text: 'again' }, context(new AbortController().signal))).output).toBe('Noted: again')
    hub.close()
  })

  it('is never sent a request at plain http to another machine, whatever sent the client there', async () => {
    const requested: string[] = []
    const inner = async (input: RequestInfo | URL) => {
      requested.push(String(input))
      return new Response('{}')
    }
    const secure = secureMcpFetch(inner)
    await expect(secure('http://auth.example/token')).rejects.toBeInstanceOf(InsecureMcpUrlError)
    await expect(secure('javascript:alert(1)')).rejects.toBeInstanceOf(InsecureMcpUrlError)
    expect(requested).toEqual([])
    await secure('https://auth.example/token')
    await secure('http://127.0.0.1:8790/mcp')
    expect(requested).toEqual(['https://auth.example/token', 'http://127.0.0.1:8790/mcp'])

    // A stored server at such a URL is refused before any request; so is an endpoint it names.
    const connect = mcpConnector({ fetch: inner, origin: ORIGIN, opaqueProbe: async () => 'conclusive' })
    expect(await failure(connect(config('http://mcp.example/mcp')))).toEqual({ state: 'insecure', url: 'http://mcp.example/mcp' })
    expect(requested).toHaveLength(2)
  })
})

/** A plain Node HTTP server on 127.0.0.1 that records each request and answers with `answer`. */
async function startServer(answer: (request: IncomingMessage, body: string, response: ServerResponse) => void) {
  const requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
      answer(request, body, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('a redirect', () => {
  it('is never followed: the address it points to is never contacted, and the failure says why', async () => {
    const target = await startServer((_request, _body, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
    const redirecting = await startServer((request, _body, response) => response.writeHead(307, { location: `${target.url}${request.url}` }).end())
    try {
      const header = { name: 'Authorization', value: `Bearer ${SECRET}` }
      const connecting = mcpConnector({ origin: ORIGIN, opaqueProbe: async () => 'conclusive' })(config(`${redirecting.url}/mcp`, [header]))
      const status = await connecting.catch((error: unknown) => (error instanceof McpConnectError ? error.status : error))
      // The redirecting server saw the request; where it pointed saw nothing, neither the header nor the body.
      expect(redirecting.requests.map((request) => request.method)).toContain('POST')
      expect(target.requests).toEqual([])
      expect(status).toEqual({ state: 'failed', message: expect.stringContaining(`${redirecting.url}/mcp answered with a redirect, which tabcode does not follow`) as string })

      // Every request the MCP client makes is refused so, whatever redirect mode its caller asked for; a caller that
      // follows redirects itself (hop by hop through the same fetch, which checks each address) gets the redirect.
      const secure = secureMcpFetch((input, init) => globalThis.fetch(input, init))
      for (const redirect of ['follow', 'error', undefined] as const) {
        await expect(secure(`${redirecting.url}/token`, { method: 'POST', body: 'code=x', ...(redirect ? { redirect } : {}) })).rejects.toBeInstanceOf(McpRedirectError)
      }
      const manual = await secure(`${redirecting.url}/.well-known/oauth-authorization-server`, { redirect: 'manual' })
      expect(manual.status).toBe(307)
      expect(target.requests).toEqual([])
    } finally {
      await Promise.all([target.close(), redirecting.close()])
    }
  })
})

describe('a call the server answers with an error', () => {
  it('fails with the server’s words and keeps the connection: the next call needs no new session', async () => {
    // A bare JSON-RPC server, as any server may answer: invalid params is an error reply, not a tool result.
    const rpc = await startServer((request, body, response) => {
      if (request.method !== 'POST') return void response.writeHead(405).end()
      const message = JSON.parse(body) as { id?: number; method: string; params?: { arguments?: { n?: unknown } } }
      if (message.id === undefined) return void response.writeHead(202).end()
      const reply = (payload: object) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...payload }))
      if (message.method === 'initialize') {
        return reply({ result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'picker', version: '1.0.0' } } })
      }
      if (message.method === 'tools/list') {
        return reply({ result: { tools: [{ name: 'pick', description: 'Picks a number.', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }] } })
      }
      if (message.method === 'tools/call') {
        const n = message.params?.arguments?.n
        if (typeof n !== 'number') return reply({ error: { code: -32602, message: 'Invalid params: n must be a number' } })
        return reply({ result: { content: [{ type: 'text', text: `Picked ${n}.` }] } })
      }
      reply({ error: { code: -32601, message: 'Method not found' } })
    })
    try {
      const connect = mcpConnector({ origin: ORIGIN, opaqueProbe: async () => 'conclusive' })
      let connects = 0
      const hub = createMcpHub({
        servers: async () => [{ type: 'remote', name: 'picker', url: `${rpc.url}/mcp`, headers: [], enabled: true }],
        connect: (server, options) => {
          connects++
          return connect(server, options)
        },
      })
      const [pick] = await hub.tools('build')
      const context = { abort: new AbortController().signal, ask: async () => {} } as never
      await expect(pick!.execute({ n: 'seven' }, context)).rejects.toThrow('The MCP server picker refused the call: Invalid params: n must be a number')
      expect((await pick!.execute({ n: 7 }, context)).output).toBe('Picked 7.')
      const [again] = await hub.tools('build')
      expect((await again!.execute({ n: 8 }, context)).output).toBe('Picked 8.')
      expect(connects).toBe(1)
      expect(rpc.requests.filter((request) => request.body.includes('"initialize"'))).toHaveLength(1)
      hub.close()
    } finally {
      await rpc.close()
    }
  })
})
