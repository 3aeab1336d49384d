#!/usr/bin/env node
// A CouchDB-protocol server for the sync e2e (issue 31): PouchDB Server in memory, in a working directory of its own
// (it writes its config.json and log there), with CORS opened to the app's origin the way a user configures Apache
// CouchDB's [cors] section for tabcode (README, "Sync across devices").
//
//   PORT=8822 APP_ORIGIN=http://127.0.0.1:4173 node test-servers/sync-server.mjs
//
// PouchDB Server reads CORS from its config file: `httpd.enable_cors`, and `cors.origins` / `credentials` /
// `methods` / `headers` (lib/cors.js in pouchdb-server 4.2). Nobody is an admin ("admin party"), so every caller may
// create a database, as a CouchDB server admin may.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const port = Number(process.env.PORT ?? 8822)
const origin = process.env.APP_ORIGIN ?? 'http://127.0.0.1:4173'
const repository = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const binary = process.env.TABCODE_POUCHDB_SERVER ?? join(repository, 'node_modules/.bin/pouchdb-server')

const directory = mkdtempSync(join(tmpdir(), 'tabcode-sync-server-'))
const config = {
  httpd: { enable_cors: true },
  cors: {
    origins: origin,
    credentials: true,
    methods: 'GET, HEAD, POST, PUT, DELETE, COPY',
    headers: 'Accept, Authorization, Content-Type, Origin, Referer',
  },
  log: { file: join(directory, 'log.txt') },
}
writeFileSync(join(directory, 'config.json'), JSON.stringify(config, null, 2))

const child = spawn(binary, ['--in-memory', '--port', String(port), '--host', '127.0.0.1', '--no-stdout-logs', '--config', join(directory, 'config.json')], {
  cwd: directory,
  stdio: ['ignore', 'inherit', 'inherit'],
})
const stop = () => child.kill('SIGTERM')
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
child.on('exit', (code) => {
  rmSync(directory, { recursive: true, force: true })
  process.exit(code ?? 0)
})
