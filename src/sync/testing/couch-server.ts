import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/*
 * A CouchDB-protocol server for the sync tests: PouchDB Server, in memory, started by the test itself (issue 31).
 * The binary is the repository's devDependency, or the one `TABCODE_POUCHDB_SERVER` names; the port is
 * `TABCODE_SYNC_PORT` if set, else a free one the system gives: test files run in parallel, each with a server of its
 * own, and a fixed port would let one file's server answer (and stop under) another's tests.
 */

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

function binary(): string {
  const named = process.env.TABCODE_POUCHDB_SERVER
  const candidates = [named, join(repository, 'node_modules/.bin/pouchdb-server')].filter((path): path is string => Boolean(path))
  const found = candidates.find((path) => existsSync(path))
  if (!found) throw new Error(`No pouchdb-server binary: add the devDependency pouchdb-server, or set TABCODE_POUCHDB_SERVER (looked at ${candidates.join(', ')})`)
  return found
}

export interface CouchServer {
  url: string
  stop(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))))
    })
  })
}

export async function startCouchServer(): Promise<CouchServer> {
  const port = process.env.TABCODE_SYNC_PORT ? Number(process.env.TABCODE_SYNC_PORT) : await freePort()
  const url = `http://127.0.0.1:${port}`
  // It writes its config and log into the working directory: give it one of its own.
  const directory = mkdtempSync(join(tmpdir(), 'tabcode-couch-'))
  const child: ChildProcess = spawn(binary(), ['--in-memory', '--port', String(port), '--no-stdout-logs'], { cwd: directory, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pouchdb-server exited (${child.exitCode}): ${stderr}`)
    const ready = await fetch(`${url}/`).then((response) => response.ok, () => false)
    if (ready) break
    if (Date.now() > deadline) {
      child.kill()
      throw new Error(`pouchdb-server did not answer on ${url} within 20 s: ${stderr}`)
    }
    await new Promise((done) => setTimeout(done, 100))
  }
  return {
    url,
    async stop() {
      child.kill()
      await exited
    },
  }
}
