#!/usr/bin/env node
// A git server over HTTP for e2e and unit tests: Node `http` in front of Debian's `git http-backend` (run as a
// CGI program per request), adding what a browser client needs and a push token. No dependencies.
//
//   node test-servers/git-http-server.mjs         # listens on 127.0.0.1:$PORT (default 8821)
//   const { url, close } = await startGitHttpServer({ port: 0 })   # from a test, on a random port
//
//   POST /_create/<name>         a fresh, empty bare repository `<name>.git` (branch main); 201, or 409 if it exists
//   GET  /health                 200
//   /<name>.git/...              git's smart HTTP protocol (clone, fetch, push)
//
// Fetching is open; pushing (git-receive-pack) needs `Authorization: Basic` whose password is the token
// (`GIT_SERVER_TOKEN`, default `test-token`), otherwise 401 with `WWW-Authenticate`, as a forge answers.
// The app calls it cross-origin under COEP require-corp: every answer (preflight included) carries CORS headers.
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, existsSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export const DEFAULT_TOKEN = 'test-token'

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Git-Protocol, User-Agent',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': 'WWW-Authenticate',
  'Access-Control-Max-Age': '600',
}

function gitExecPath() {
  return execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim()
}

function authorized(header, token) {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '')
  if (!match) return false
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  return decoded.slice(decoded.indexOf(':') + 1) === token
}

function isPush(url) {
  return url.pathname.endsWith('/git-receive-pack') || url.searchParams.get('service') === 'git-receive-pack'
}

/** One request through `git http-backend`: CGI variables in, its headers (with `Status:`) and body out. */
function runBackend(root, backend, req, url, body, res) {
  const child = spawn(backend, [], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      // Pushing over HTTP is off by default for anonymous users; the token check above stands in for a login.
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.receivepack',
      GIT_CONFIG_VALUE_0: 'true',
      REMOTE_USER: 'tester',
      REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      CONTENT_LENGTH: String(body.length),
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
    },
  })
  let head = Buffer.alloc(0)
  let started = false
  child.stdout.on('data', (chunk) => {
    if (started) return void res.write(chunk)
    head = Buffer.concat([head, chunk])
    const end = head.indexOf('\r\n\r\n')
    const endLf = head.indexOf('\n\n')
    const at = end !== -1 ? end : endLf
    if (at === -1) return
    const separator = end !== -1 ? 4 : 2
    const headers = { ...CORS }
    let status = 200
    for (const line of head.subarray(0, at).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':')
      if (colon === -1) continue
      const name = line.slice(0, colon).trim()
      const value = line.slice(colon + 1).trim()
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10)
      else headers[name] = value
    }
    started = true
    res.writeHead(status, headers)
    res.write(head.subarray(at + separator))
  })
  child.stderr.on('data', (chunk) => process.stderr.write(chunk))
  child.on('close', () => {
    if (!started) res.writeHead(502, CORS)
    res.end()
  })
  // http-backend may end before reading the body (an unknown repository): the broken pipe is no failure of ours.
  child.stdin.on('error', () => {})
  child.stdin.end(body)
}

export function startGitHttpServer({ port = 0, host = '127.0.0.1', root, token = DEFAULT_TOKEN } = {}) {
  const projectRoot = root ?? mkdtempSync(join(tmpdir(), 'tabcode-git-server-'))
  const backend = join(gitExecPath(), 'git-http-backend')
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${host}`)
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS)
      return void res.end()
    }
    if (url.pathname === '/health') {
      res.writeHead(200, { ...CORS, 'Content-Type': 'text/plain' })
      return void res.end('ok')
    }
    const create = /^\/_create\/([A-Za-z0-9._-]+)$/.exec(url.pathname)
    if (create && req.method === 'POST') {
      const path = join(projectRoot, `${create[1]}.git`)
      if (existsSync(path)) {
        res.writeHead(409, CORS)
        return void res.end('exists')
      }
      execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', path])
      res.writeHead(201, { ...CORS, 'Content-Type': 'text/plain' })
      return void res.end(`${create[1]}.git`)
    }
    if (isPush(url) && !authorized(req.headers.authorization, token)) {
      res.writeHead(401, { ...CORS, 'WWW-Authenticate': 'Basic realm="tabcode test git server"', 'Content-Type': 'text/plain' })
      return void res.end('Authentication required')
    }
    const parts = []
    for await (const part of req) parts.push(part)
    runBackend(projectRoot, backend, req, url, Buffer.concat(parts), res)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      const address = server.address()
      const actual = typeof address === 'object' && address ? address.port : port
      resolve({
        url: `http://${host}:${actual}`,
        port: actual,
        root: projectRoot,
        close: () => new Promise((done) => {
          server.closeAllConnections()
          server.close(() => done())
        }),
      })
    })
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8821)
  const server = await startGitHttpServer({ port, host: process.env.HOST ?? '127.0.0.1', token: process.env.GIT_SERVER_TOKEN ?? DEFAULT_TOKEN })
  console.log(`git http server listening on ${server.url} (repositories in ${server.root})`)
  const stop = () => server.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
