import { createReadStream, statSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'

/**
 * The built app (`dist/`) served as a plain static host would: the files with their types and the cross-origin
 * isolation headers, and, for the Python worker's script, only the policy the test asks for (`vite preview` sends
 * `PYTHON_WORKER_POLICY`; a host configured by someone else may send none, or another). Started by the test itself.
 */
export interface StaticAppServer {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string
  close(): Promise<void>
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.zip': 'application/zip',
}

const DIST = join(process.cwd(), 'dist')
const PYTHON_WORKER = /^\/assets\/python\.worker-[^/]+\.js$/

export async function startStaticApp(options: { workerPolicy: string | undefined }): Promise<StaticAppServer> {
  const server = http.createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    let file = normalize(join(DIST, path))
    if (!file.startsWith(DIST) || !isFile(file)) file = join(DIST, 'index.html')
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'credentialless',
    }
    if (PYTHON_WORKER.test(path) && options.workerPolicy !== undefined) headers['content-security-policy'] = options.workerPolicy
    response.writeHead(200, headers)
    createReadStream(file).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}
