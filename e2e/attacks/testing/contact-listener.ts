import { createSocket, type Socket as UdpSocket } from 'node:dgram'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * A host that counts every contact: a TCP connection (an HTTP request, a preconnect, a WebSocket) or a UDP datagram
 * (a STUN or TURN probe from WebRTC) on one port of 127.0.0.1. The attack corpus (`e2e/attacks/`) points every way
 * out at it, and a test fails on any contact the user did not allow (`allow`).
 *
 * Plain Node servers started by the test itself, so nothing of the app's is between the page and the count.
 */

export interface Contact {
  kind: 'tcp' | 'udp'
  /** The HTTP request line (`GET /?s=… HTTP/1.1`) once one arrived; absent for a connection that sent nothing yet, and for UDP. */
  request?: string
  /** The request's path and query, for matching (`/leak?s=secret`). */
  path?: string
  /** The Origin header, when the request had one. */
  origin?: string
  at: number
}

export interface ContactListener {
  readonly host: '127.0.0.1'
  readonly port: number
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  /** Every contact so far, oldest first. */
  readonly contacts: readonly Contact[]
  /** Marks contacts the user allowed: a contact any matcher accepts is not a failure. */
  allow(matcher: (contact: Contact) => boolean): void
  /** The contacts no `allow` matcher accepts. */
  unexpected(): Contact[]
  /** What an HTTP request to `path` is answered with (default: a small HTML page, CORS open, 200). */
  serve(path: string, answer: { status?: number; type?: string; body: string; headers?: Record<string, string> }): void
  close(): Promise<void>
}

const DEFAULT_PAGE = '<!doctype html><title>contact</title><p>You reached the counting host.</p>'

export async function startContactListener(): Promise<ContactListener> {
  const contacts: Contact[] = []
  const allowed: ((contact: Contact) => boolean)[] = []
  const answers = new Map<string, { status?: number; type?: string; body: string; headers?: Record<string, string> }>()
  const sockets = new Set<Socket>()
  const byConnection = new WeakMap<Socket, Contact>()

  const server = http.createServer((request, response) => {
    const url = request.url ?? '/'
    const contact = byConnection.get(request.socket)
    const line = `${request.method} ${url} HTTP/${request.httpVersion}`
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined
    // Keep-alive carries several requests on one connection: each request is a contact of its own.
    if (contact && contact.request === undefined) Object.assign(contact, { request: line, path: url, ...(origin ? { origin } : {}) })
    else contacts.push({ kind: 'tcp', request: line, path: url, ...(origin ? { origin } : {}), at: Date.now() })
    const answer = answers.get(new URL(url, 'http://x').pathname)
    response.writeHead(answer?.status ?? 200, {
      'content-type': answer?.type ?? 'text/html; charset=utf-8',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      ...answer?.headers,
    })
    response.end(request.method === 'HEAD' ? undefined : (answer?.body ?? DEFAULT_PAGE))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    const contact: Contact = { kind: 'tcp', at: Date.now() }
    contacts.push(contact)
    byConnection.set(socket, contact)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  const udp: UdpSocket = createSocket('udp4')
  udp.on('message', () => contacts.push({ kind: 'udp', at: Date.now() }))
  // The same number on UDP: a STUN/TURN URL in a page names one port for both.
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject)
    udp.bind(port, '127.0.0.1', () => resolve())
  })

  return {
    host: '127.0.0.1',
    port,
    origin: `http://127.0.0.1:${port}`,
    contacts,
    allow: (matcher) => void allowed.push(matcher),
    unexpected: () => contacts.filter((contact) => !allowed.some((matcher) => matcher(contact))),
    serve: (path, answer) => void answers.set(path, answer),
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        new Promise<void>((resolve) => udp.close(() => resolve())),
      ])
    },
  }
}
