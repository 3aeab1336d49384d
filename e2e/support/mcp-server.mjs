#!/usr/bin/env node
// A small remote MCP server for e2e tests, over Streamable HTTP (stateless: a fresh server per request, JSON
// answers), made with @modelcontextprotocol/sdk (a dev dependency; the app itself uses @ai-sdk/mcp).
//
//   node e2e/support/mcp-server.mjs                    # listens on 127.0.0.1:$PORT (default 8790)
//   const { url, close, calls } = await startMcpServer({ port: 0 })   # from a test
//
//   POST /mcp            the MCP endpoint, with CORS headers for any origin
//   POST /closed/mcp     the same server without CORS headers: a browser page is refused (CORS)
//   GET  /sse/mcp        the older HTTP+SSE transport (POST there answers 405, as on servers without Streamable
//                        HTTP); messages go to POST /sse/messages?sessionId=…
//   GET  /__calls        the tool calls it answered, oldest first
//
// One tool, `lookup_word` ({ word }), answers with two text parts. The app's worker runs cross-origin under COEP,
// so CORS is enough for /mcp; /closed/mcp sends a CORP header, so the app's no-cors probe can see it answer.
import http from 'node:http'
import { pathToFileURL } from 'node:url'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*, Authorization',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
  'Access-Control-Max-Age': '600',
}

function createServer(calls) {
  const server = new McpServer({ name: 'e2e-dictionary', version: '1.0.0' })
  server.registerTool(
    'lookup_word',
    { description: 'Looks a word up in the test dictionary.', inputSchema: { word: z.string().describe('The word to look up') } },
    async ({ word }) => {
      calls.push({ tool: 'lookup_word', input: { word } })
      return { content: [{ type: 'text', text: `${word}: a word from the test dictionary.` }, { type: 'text', text: 'Source: e2e MCP server.' }] }
    },
  )
  return server
}

async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const text = Buffer.concat(chunks).toString('utf8')
  return text ? JSON.parse(text) : undefined
}

/** @param {{ port?: number, host?: string }} [options] */
export async function startMcpServer({ port = 0, host = '127.0.0.1' } = {}) {
  const calls = []
  /** @type {Map<string, SSEServerTransport>} */
  const streams = new Map()
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const path = url.pathname
    if (path !== '/closed/mcp') for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value)
    else res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin')
    if (req.method === 'OPTIONS') return void res.writeHead(204).end()
    if (path === '/__calls') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(calls))
    if (path === '/sse/mcp') {
      if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end()
      const transport = new SSEServerTransport('/sse/messages', res)
      streams.set(transport.sessionId, transport)
      res.on('close', () => streams.delete(transport.sessionId))
      await createServer(calls).connect(transport)
      return
    }
    if (path === '/sse/messages') {
      const transport = streams.get(url.searchParams.get('sessionId') ?? '')
      if (!transport) return void res.writeHead(404).end()
      return void (await transport.handlePostMessage(req, res, await readBody(req)))
    }
    if (path !== '/mcp' && path !== '/closed/mcp') return void res.writeHead(404).end()
    try {
      if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end()
      const body = await readBody(req)
      const mcp = createServer(calls)
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      res.on('close', () => {
        void transport.close()
        void mcp.close()
      })
      await mcp.connect(transport)
      await transport.handleRequest(req, res, body)
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }))
    }
  })
  await new Promise((resolve) => server.listen(port, host, resolve))
  const address = server.address()
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}`
  return {
    url,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve(undefined))
      }),
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { url } = await startMcpServer({ port: Number(process.env.PORT ?? 8790) })
  console.log(`MCP server on ${url}/mcp`)
}
