#!/usr/bin/env node
// `npm start`: build the app and serve it, printing only what the user needs: the address, or why it can't be served.
// The port is 4173, or PORT / `npm start -- --port N`. A port in use is an error said at once (before the build),
// never a silent move to another port: an address the user bookmarked must keep meaning this app and its storage,
// since IndexedDB belongs to the origin, port included.
import { createServer } from 'node:net'
import { build, preview } from 'vite'

const HOST = '127.0.0.1'
const DEFAULT_PORT = 4173

const port = readPort()
await refuseTakenPort(port)

const started = performance.now()
process.stdout.write('Building tabcode… ')
try {
  // Warnings and errors still show; the file list and the plugins' notes do not.
  await build({ logLevel: 'warn' })
} catch (error) {
  console.error(`\nThe build failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`)

try {
  const server = await preview({ logLevel: 'warn', preview: { host: HOST, port, strictPort: true } })
  const address = server.resolvedUrls?.local[0] ?? `http://${HOST}:${port}/`
  console.log(`\ntabcode is running at ${address}\nOpen it in Chrome, Edge or another Chromium browser (Firefox and Safari work too, without folders on disk). Ctrl+C stops it.`)
} catch (error) {
  console.error(`Couldn't serve tabcode on port ${port}: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}

function readPort() {
  const flag = process.argv.indexOf('--port')
  const text = flag >= 0 ? process.argv[flag + 1] : process.env.PORT
  if (text === undefined || text === '') return DEFAULT_PORT
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    console.error(`"${text}" is not a port: give a whole number from 1 to 65535, e.g. PORT=4180 npm start`)
    process.exit(1)
  }
  return value
}

/** Exits with a clear message when something already listens on the port. */
function refuseTakenPort(port) {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', (error) => {
      const reason = error.code === 'EADDRINUSE' ? 'is in use by another program (another tabcode, perhaps)' : `can't be used (${error.code ?? error.message})`
      console.error(`Port ${port} on ${HOST} ${reason}. Stop that program, or serve on another port: PORT=4180 npm start`)
      process.exit(1)
    })
    probe.listen(port, HOST, () => probe.close(() => resolve()))
  })
}
