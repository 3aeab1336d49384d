import { createReadStream, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import solid from 'vite-plugin-solid'
import { VitePWA } from 'vite-plugin-pwa'
import packageJson from './package.json' with { type: 'json' }
import { prepareWheels, type PreparedWheels } from './scripts/python-wheels.mjs'

// Cross-origin isolation: WebContainer needs SharedArrayBuffer. The service worker replays these headers
// from its precache, so the page stays isolated when served offline. COEP `credentialless` (Chromium, Firefox)
// isolates like `require-corp` but still lets a `no-cors` probe see that a host answered, which is how "Test
// connection" tells a CORS refusal from a host that is down; Safari ignores it and simply runs unisolated.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'credentialless',
}

// Python (Pyodide) runs from our own origin, never a CDN: its runtime files are copied to dist/pyodide/ (served
// from node_modules in dev). They are not precached (12 MB nobody may need); the service worker caches them on
// first use, so Python works offline after that.
const PYODIDE_FILES = ['pyodide.asm.wasm', 'pyodide.asm.mjs', 'python_stdlib.zip', 'pyodide-lock.json']
const pyodideDirectory = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))
const pyodideVersion = (JSON.parse(readFileSync(join(pyodideDirectory, 'package.json'), 'utf8')) as { version: string }).version
const MIME: Record<string, string> = { wasm: 'application/wasm', mjs: 'text/javascript', zip: 'application/zip', json: 'application/json' }

function pyodideAssets(): Plugin {
  return {
    name: 'tabcode:pyodide-assets',
    configureServer(server) {
      server.middlewares.use('/pyodide/', (request, response, next) => {
        const name = (request.url ?? '').split('?')[0]!.replace(/^\//, '')
        if (!PYODIDE_FILES.includes(name)) return next()
        const path = join(pyodideDirectory, name)
        response.setHeader('Content-Type', MIME[name.split('.').pop()!]!)
        response.setHeader('Content-Length', statSync(path).size)
        createReadStream(path).pipe(response)
      })
    },
    generateBundle() {
      for (const name of PYODIDE_FILES) this.emitFile({ type: 'asset', fileName: `pyodide/${name}`, source: readFileSync(join(pyodideDirectory, name)) })
    },
  }
}

/**
 * The offline set of pure-Python wheels (pytest and its dependencies) under /python-wheels/, with an index.json that
 * says whether this build has them and, when not, why (scripts/python-wheels.mjs fetches and verifies them; a build
 * without them still succeeds). Cached by the service worker on first use, like Pyodide's own files.
 */
function pythonWheels(): Plugin {
  let prepared: Promise<PreparedWheels> | undefined
  const prepare = () => (prepared ??= prepareWheels({ log: (line) => console.warn(line) }))
  const index = (wheels: PreparedWheels) => JSON.stringify(wheels.available ? { type: 'available', files: wheels.wheels.map((wheel) => wheel.file) } : { type: 'unavailable', reason: wheels.reason })
  return {
    name: 'tabcode:python-wheels',
    configureServer(server) {
      server.middlewares.use('/python-wheels/', (request, response, next) => {
        const name = (request.url ?? '').split('?')[0]!.replace(/^\//, '')
        void prepare().then((wheels) => {
          if (name === 'index.json') return void response.setHeader('Content-Type', 'application/json').end(index(wheels))
          const wheel = wheels.available ? wheels.wheels.find((candidate) => candidate.file === name) : undefined
          if (!wheel) return next()
          response.setHeader('Content-Type', 'application/zip')
          createReadStream(wheel.path).pipe(response)
        })
      })
    },
    async buildStart() {
      const wheels = await prepare()
      if (!wheels.available) this.warn(`no offline Python wheels in this build: ${wheels.reason}`)
    },
    async generateBundle() {
      const wheels = await prepare()
      this.emitFile({ type: 'asset', fileName: 'python-wheels/index.json', source: index(wheels) })
      if (wheels.available) for (const wheel of wheels.wheels) this.emitFile({ type: 'asset', fileName: `python-wheels/${wheel.file}`, source: readFileSync(wheel.path) })
    },
  }
}

/**
 * The Python worker's own Content Security Policy, sent with its script (a dedicated worker's policy comes from its
 * script's response): scripts and requests from the app's origin only, so Pyodide loads its files and nothing a
 * program reaches through Python's bridge to JavaScript gets to another host: a dynamic `import()` (syntax, which
 * no global can take away) or a request the worker did not switch off (src/workspace/python/close-ways-out.ts). The
 * worker checks both are refused before it starts Python (src/workspace/python/worker-policy.ts), so a server that
 * serves the app must send it too.
 */
export const PYTHON_WORKER_POLICY = ["default-src 'none'", "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'", "connect-src 'self'"].join('; ')
/** The worker's script: `assets/python.worker-<hash>.js` when built, `src/workspace/python/python.worker.ts?worker_file…` in dev. */
const PYTHON_WORKER_SCRIPT = /\/python\.worker[-.]/

function pythonWorkerPolicy(): Plugin {
  const setPolicy = (request: { url?: string }, response: { setHeader(name: string, value: string): unknown }, next: () => void) => {
    if (PYTHON_WORKER_SCRIPT.test((request.url ?? '').split('?')[0]!)) response.setHeader('Content-Security-Policy', PYTHON_WORKER_POLICY)
    next()
  }
  return {
    name: 'tabcode:python-worker-policy',
    configureServer: (server) => void server.middlewares.use(setPolicy),
    configurePreviewServer: (server) => void server.middlewares.use(setPolicy),
  }
}

/**
 * What the service worker precaches: the shell only (the page, the static import graph of its entry and of the
 * agent's worker entry, their CSS, icons, manifest). Everything else under assets/ (editor, terminal, QuickJS,
 * Python's glue, shell, git, the worker's engine…) is cached on first use by a CacheFirst route (hashed names never
 * change content) and warmed in the background after a first visit from `ASSET_LIST` (src/ui/app/pwa/warm-cache.ts),
 * so the app still has everything offline later.
 */
const shell = new Set<string>()
const ASSET_LIST = 'asset-list.json'
const ASSET_CACHE = 'tabcode-assets'

/** Static imports in built JS (`import{a}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`), not `import()`. */
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'`](\.\.?\/[^"'`]+)["'`]/g

function shellAndAssetList(): Plugin {
  return {
    name: 'tabcode:shell-and-asset-list',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      shell.clear()
      const files = Object.values(bundle)
      const byName = new Map(files.map((file) => [file.fileName, file]))
      const queue: string[] = []
      const add = (fileName: string) => {
        if (shell.has(fileName) || !byName.has(fileName)) return
        shell.add(fileName)
        queue.push(fileName)
      }
      for (const file of files) {
        if (file.type === 'chunk' && file.isEntry && file.name === 'index') add(file.fileName)
        // The agent's worker is emitted as an asset of this build (built apart by Vite); its name is the source's.
        if (file.type === 'asset' && /^assets\/worker-[\w-]+\.js$/.test(file.fileName)) add(file.fileName)
        if (file.type === 'asset' && /\.html$/.test(file.fileName)) add(file.fileName)
      }
      while (queue.length) {
        const file = byName.get(queue.shift()!)!
        if (file.type === 'chunk') {
          for (const imported of file.imports) add(imported)
          for (const css of file.viteMetadata?.importedCss ?? []) add(css)
        } else if (file.fileName.endsWith('.js')) {
          const source = typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source)
          const base = file.fileName.slice(0, file.fileName.lastIndexOf('/') + 1)
          // The worker's engine is not here: its entry opens a session (the repair on open) and reads its stored files
          // by itself, so offline history never depends on whether the warm-up had finished.
          for (const [, path] of source.matchAll(STATIC_IMPORT)) add(new URL(path!, `http://x/${base}`).pathname.slice(1))
        }
        // The session view is loaded with import() after the first frame (issue 18: the first visit's longest
        // task), but opening any session needs it: offline, that must not depend on the warm-up either.
        if (file.type === 'chunk') for (const imported of file.dynamicImports) if (/^assets\/session-view-[\w-]+\.js$/.test(imported)) add(imported)
      }
      // What the shell loads with import() comes first (the worker's engine, the session view's parts): a user who
      // goes offline a moment after a first visit most likely needs those.
      const first = new Set<string>()
      for (const name of shell) {
        const file = byName.get(name)!
        if (file.type === 'chunk') for (const imported of file.dynamicImports) first.add(imported)
        else if (name.endsWith('.js')) {
          const source = typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source)
          for (const [, path] of source.matchAll(/import\(\s*["'`](\.\.?\/[^"'`]+)["'`]/g)) first.add(new URL(path!, `http://x/${name}`).pathname.slice(1))
        }
      }
      const lazy = files
        .map((file) => file.fileName)
        .filter((name) => /^assets\/.+\.(js|css|wasm)$/.test(name) && !shell.has(name) && name !== BENCH_DATA_FILE)
        .sort((a, b) => Number(first.has(b)) - Number(first.has(a)) || a.localeCompare(b))
      this.emitFile({ type: 'asset', fileName: ASSET_LIST, source: JSON.stringify({ cache: ASSET_CACHE, assets: lazy.map((name) => `/${name}`) }) })
    },
  }
}

/**
 * Writes the worker's engine chunk name over the token in src/worker/import-engine.ts, which imports it again under
 * another URL after a failed load (a browser keeps the failure of the first URL). The build fails if the token or the
 * chunk is missing, rather than ship a worker that can never retry.
 */
function engineChunkName(): Plugin {
  const token = '__TABCODE_ENGINE_CHUNK__'
  return {
    name: 'tabcode:engine-chunk',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk')
      const users = chunks.filter((chunk) => chunk.code.includes(token))
      if (users.length === 0) return
      const engine = chunks.find((chunk) => chunk.facadeModuleId?.replace(/\\/g, '/').endsWith('/src/worker/engine.ts'))
      if (!engine) this.error('tabcode:engine-chunk: no chunk holds src/worker/engine.ts')
      for (const chunk of users) {
        const from = chunk.fileName.slice(0, chunk.fileName.lastIndexOf('/') + 1)
        if (!engine.fileName.startsWith(from)) this.error(`tabcode:engine-chunk: ${engine.fileName} is not beside ${chunk.fileName}`)
        chunk.code = chunk.code.replaceAll(token, `./${engine.fileName.slice(from.length)}`)
      }
    },
  }
}

/**
 * just-bash's browser build leaves two imports to the bundler that have no browser version: `node:zlib` (its gzip,
 * gunzip, zcat) and turndown's DOM (its html-to-markdown runs in our worker, which has no `document`). For that one
 * importer they are our modules instead (src/workspace/shell/browser/). The unit tests load just-bash's Node build,
 * so e2e/shell-commands.spec.ts runs these commands in the built app.
 */
function browserShims(): Plugin {
  const shims: Record<string, string> = {
    'node:zlib': 'src/workspace/shell/browser/zlib.ts',
    turndown: 'src/workspace/shell/browser/turndown.ts',
  }
  const root = dirname(fileURLToPath(import.meta.url))
  return {
    name: 'tabcode:just-bash-browser-shims',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !/[\\/]just-bash[\\/]dist[\\/]bundle[\\/]browser\.js$/.test(importer)) return null
      const shim = shims[source]
      return shim ? join(root, shim) : null
    },
  }
}

/**
 * A build prints only what needs the reader's attention (issue 33: `npm start`'s output read like errors). Pyodide's
 * module imports `node:fs`, `node:path` and five more on a branch that runs only under Node; the browser build
 * never reaches it, so Vite's note that it replaced them with an empty module is expected every time. Anything else
 * still reaches the default handler.
 */
function quietKnownLogs(level: string, log: { message: string; id?: string }, handler: (level: never, log: never) => void): void {
  if (level === 'warn' && /has been externalized for browser compatibility, imported by "[^"]*\/node_modules\/pyodide\//.test(log.message)) return
  handler(level as never, log as never)
}

/** Rolldown's report of slow plugin callbacks is for profiling a build, not for every build: the figures vary run to run. */
const QUIET_CHECKS = { pluginTimings: false }

/** Where the benchmark's inputs are built (see build.rolldownOptions). */
const BENCH_DATA_FILE = 'assets/bench-data.js'

export default defineConfig({
  plugins: [
    solid(),
    browserShims(),
    pyodideAssets(),
    pythonWheels(),
    pythonWorkerPolicy(),
    shellAndAssetList(),
    VitePWA({
      strategies: 'generateSW',
      injectRegister: false,
      registerType: 'prompt',
      includeAssets: ['icon.svg'],
      manifest: {
        // The app's identity once installed: kept when start_url changes.
        id: '/',
        name: 'tabcode',
        short_name: 'tabcode',
        description: 'An open coding agent that lives in one browser tab.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#1b1d23',
        background_color: '#1b1d23',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // What the installed app is launched with; src/ui/app/launch/ carries each out (the addresses and parameters
        // are launch-address.ts's; e2e/install.spec.ts launches with what this manifest says, so they cannot drift).
        shortcuts: [
          {
            name: 'New session',
            short_name: 'New session',
            description: 'Start a new session in the last project',
            url: '/?launch=new-session',
            icons: [{ src: '/icon-192.png', sizes: '192x192', type: 'image/png' }],
          },
        ],
        // Exports (and backups) open through "Import…"'s import; a zip waits in the new-project dialog for a yes.
        file_handlers: [
          { action: '/', accept: { 'application/json': ['.json'] } },
          { action: '/', accept: { 'application/zip': ['.zip'] } },
        ],
        // A launch goes to the app window already open (the newest), which takes it from its launch queue: another
        // window would load the app again beside one that may be running a turn, and navigating the open one would
        // stop that turn.
        launch_handler: { client_mode: 'focus-existing' },
        // A shared link or text arrives in the address (GET: nothing to post, and it works offline from the cache).
        share_target: { action: '/', method: 'GET', params: { title: 'share-title', text: 'share-text', url: 'share-url' } },
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,wasm}'],
        // The shell only (see `shell`); the rest is cached on first use and warmed after a first visit.
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.filter(({ url }) => !url.startsWith('assets/') || shell.has(url)),
            warnings: [],
          }),
        ],
        // The benchmark's inputs (share/testing/bench-data.ts, an entry of their own) are loaded only by `npm run
        // bench`: no user should download them with the app.
        globIgnores: ['pyodide/**', 'python-wheels/**', `**/${BENCH_DATA_FILE}`],
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            // Module scripts are fetched with an Origin header and the server answers `Vary: Origin`: the warmed copy
            // (fetched without one) must still match.
            // A retried chunk import carries a query (src/worker/import-engine.ts): it is the same file.
            options: { cacheName: ASSET_CACHE, cacheableResponse: { statuses: [200] }, matchOptions: { ignoreVary: true, ignoreSearch: true } },
          },
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/pyodide/'),
            handler: 'CacheFirst',
            options: { cacheName: `tabcode-pyodide-${pyodideVersion}`, cacheableResponse: { statuses: [200] } },
          },
          {
            // A wheel's name carries its version, so a cached one is never stale; the index says what this build has.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/python-wheels/') && url.pathname.endsWith('.whl'),
            handler: 'CacheFirst',
            options: { cacheName: 'tabcode-python-wheels', cacheableResponse: { statuses: [200] } },
          },
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname === '/python-wheels/index.json',
            handler: 'NetworkFirst',
            options: { cacheName: 'tabcode-python-wheels', cacheableResponse: { statuses: [200] } },
          },
        ],
        // The warm-up of the asset cache runs in the service worker (public/sw-warm.js says why).
        importScripts: ['/sw-warm.js'],
        navigateFallback: '/index.html',
        // The MCP sign-in's callback page (public/oauth-callback.html) arrives with the authorization server's query:
        // it is served from the precache without it, and never replaced by the app's shell when its query is unusual.
        ignoreURLParametersMatching: [/^utm_/, /^fbclid$/, /^code$/, /^state$/, /^iss$/, /^error(_description|_uri)?$/],
        navigateFallbackDenylist: [/^\/oauth-callback\.html(\?|$)/],
        clientsClaim: true,
        skipWaiting: false,
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
  ],
  // The Python worker names the policy it needs when a server does not send it (src/workspace/python/worker-policy.ts).
  define: { __APP_VERSION__: JSON.stringify(packageJson.version), __PYTHON_WORKER_POLICY__: JSON.stringify(PYTHON_WORKER_POLICY) },
  worker: { format: 'es', plugins: () => [browserShims(), engineChunkName()], rolldownOptions: { onLog: quietKnownLogs, checks: QUIET_CHECKS } },
  optimizeDeps: { include: ['comlink', 'dexie', 'zod', 'workbox-window', 'marked'] },
  build: {
    target: 'es2022',
    rolldownOptions: {
      // The benchmark's inputs are test scaffolding: the app never imports them. They are built as an entry of their
      // own under a fixed name, which `window.__tabcode.benchData` loads by URL.
      input: { index: 'index.html', 'bench-data': 'src/share/testing/bench-data.ts' },
      preserveEntrySignatures: 'exports-only',
      onLog: quietKnownLogs,
      checks: QUIET_CHECKS,
      output: { entryFileNames: (chunk) => (chunk.name === 'bench-data' ? BENCH_DATA_FILE : 'assets/[name]-[hash].js') },
    },
  },
  server: { headers: isolation },
  preview: { headers: isolation },
})
