// The direction of dependencies between src/'s folders (ARCHITECTURE.md, "Folders"; docs/folders.md). src/ui/app/bundle-boundary.test.ts
// separately guards what the main thread loads at first paint.
import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { display, fileImports, importGraph, resolveSpecifier, sourceFiles } from '../scripts/import-graph.mjs'

// One direction of dependencies. A layer may import itself and the layers it names, type-only imports included
// (a type is a dependency too: the cycles issue 16 removes were all type-only). Folders are matched by prefix, the
// longest first, so `workspace/webcontainer/` can sit in another layer than `workspace/`.
const LAYERS: Record<string, { folders: string[]; may: string[]; note: string }> = {
  core: { folders: ['core/'], may: [], note: 'pure: schemas, ids, errors, events, settings, DTOs, history rules, stop conditions, permission evaluation' },
  store: { folders: ['store/'], may: ['core'], note: 'the only layer that opens Dexie tables' },
  provider: { folders: ['provider/'], may: ['core'], note: 'SDK construction and connection tests from a ProviderConfig it is given' },
  workspace: { folders: ['workspace/'], may: ['core'], note: 'backends behind the Workspace port; storage through the Storage port' },
  // The page runs WebContainer and builds the static preview itself: these two are main-thread backends.
  'main-thread workspace': { folders: ['workspace/webcontainer/', 'workspace/preview/'], may: ['core', 'workspace'], note: 'WebContainer and the static preview, used by the page' },
  tools: { folders: ['tools/'], may: ['core', 'workspace'], note: 'tools get ports (outputs, todos, files, asks) in ToolContext, never the database' },
  snapshot: { folders: ['snapshot/'], may: ['core', 'store', 'workspace'], note: 'manifests and diffs over the workspace, rows through store functions' },
  share: { folders: ['share/'], may: ['core', 'store', 'snapshot'], note: 'export, import and links' },
  sync: { folders: ['sync/'], may: ['core', 'store'], note: 'end-to-end encrypted replication with a CouchDB-protocol server; rows through store functions (docs/sync.md)' },
  mcp: { folders: ['mcp/'], may: ['core', 'tools'], note: "remote MCP servers: connections, their tools, OAuth sign-in" },
  session: { folders: ['session/'], may: ['core', 'store', 'provider', 'workspace', 'tools', 'snapshot', 'mcp'], note: 'a prompt from intake to idle: the loop, processor, model call, subtasks, titles, compaction, revert, fork, asks' },
  worker: { folders: ['worker/'], may: ['core', 'store', 'provider', 'workspace', 'main-thread workspace', 'tools', 'snapshot', 'share', 'mcp', 'session', 'sync'], note: 'the composition root' },
  // The page in floors: the kit's building blocks, the one door to the worker, the features beside each other, and
  // the app shell that puts them together. A file path is a prefix too, so the worker client can be a floor of its own.
  'ui kit': { folders: ['ui/kit/'], may: ['core'], note: 'building blocks with no feature in them: dialog, menu, icons, format, diff, form, loaders' },
  'ui worker client': { folders: ['ui/worker-client.ts'], may: ['core'], note: 'the one door from the page to the worker' },
  ui: { folders: ['ui/'], may: ['core', 'main-thread workspace', 'ui kit', 'ui worker client'], note: 'Solid views by feature; reach the worker only through ui/worker-client.ts' },
  'ui app': { folders: ['ui/app/'], may: ['core', 'main-thread workspace', 'ui kit', 'ui worker client', 'ui'], note: 'the shell: boot, routing, sidebar, workbench, PWA' },
  // Helpers for tests (builders, fake contexts, scripted models) may use anything; only tests and helpers use them.
  testing: { folders: ['testing/'], may: ['*'], note: 'test scaffolding, never imported by production code' },
}
// Packages a layer must not import even as a type. Dexie belongs to store alone.
const FORBIDDEN_PACKAGES: Record<string, string[]> = {
  '*': ['dexie'],
  core: ['solid-js', 'ai', '@ai-sdk', 'comlink', 'just-bash'],
  ui: ['ai', '@ai-sdk'],
  'ui kit': ['ai', '@ai-sdk', 'comlink'],
  'ui worker client': ['ai', '@ai-sdk'],
  'ui app': ['ai', '@ai-sdk'],
}
const PACKAGE_OWNERS: Record<string, string[]> = { dexie: ['store'] }

const src = dirname(fileURLToPath(import.meta.url))
const isTest = (path: string) => /\.test\.tsx?$/.test(path)
// Test helpers live in a `testing/` folder beside the code they serve (`src/testing/` serves several folders); no
// other name or place marks a helper.
const isTestingHelper = (path: string) => /(^|\/)testing\//.test(path)

function layerOf(path: string): string | undefined {
  if (isTestingHelper(path)) return 'testing'
  let best: { layer: string; length: number } | undefined
  for (const [layer, { folders }] of Object.entries(LAYERS)) {
    for (const folder of folders) if (path.startsWith(folder) && folder.length > (best?.length ?? -1)) best = { layer, length: folder.length }
  }
  return best?.layer
}

function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/** One message per import against the direction (and per file outside every layer); paths relative to src. */
export function violations(edges: Array<{ from: string; to: string; line: number; kind: string; local: boolean }>): string[] {
  const found = new Set<string>()
  for (const { from, to, line, kind, local } of edges) {
    // A test beside src/ itself (this one) checks the layers rather than belonging to one.
    if (!from.includes('/') && isTest(from)) continue
    const fromLayer = layerOf(from)
    const where = `${from}:${line}${kind === 'type' ? ' (type-only)' : ''}`
    if (!fromLayer) {
      found.add(`${from}: in no layer; add its folder to LAYERS`)
      continue
    }
    if (!local) {
      // Tests never ship: a core test may drive a real SDK. The direction between src folders still holds for them.
      if (isTest(from)) continue
      const name = packageName(to)
      const banned = [...(FORBIDDEN_PACKAGES['*'] ?? []), ...(FORBIDDEN_PACKAGES[fromLayer] ?? [])]
      const owners = PACKAGE_OWNERS[name]
      if (banned.some((ban) => name === ban || name.startsWith(`${ban}/`)) && !owners?.includes(fromLayer)) {
        found.add(`${where}: ${fromLayer} imports the package ${to}${owners ? ` (only ${owners.join(', ')} may)` : ''}`)
      }
      continue
    }
    const toLayer = layerOf(to)
    if (fromLayer === toLayer || !toLayer) continue
    if (toLayer === 'testing') {
      if (!isTest(from)) found.add(`${where}: production code imports the test helper ${to}`)
      continue
    }
    // A test may reach its own layer's neighbours' helpers, but not past the direction of the code it tests.
    const allowed = LAYERS[fromLayer]!.may
    if (allowed.includes('*') || allowed.includes(toLayer)) continue
    found.add(`${where}: ${fromLayer} imports ${toLayer} (${to}); ${fromLayer} may import ${allowed.length ? allowed.join(', ') : 'nothing else in src'}`)
  }
  return [...found].sort()
}

/**
 * Production modules built ahead of their caller, which only their tests import until it lands. Each entry names
 * the issue whose next step wires it; the test below fails once the caller exists, so the entry is then removed.
 */
const AWAITING_CALLER = new Set<string>([])

/**
 * One message per file outside every `testing/` folder that only tests and helpers import: a helper under another
 * name or place, which the layers would otherwise check as production code.
 */
export function strayHelpers(edges: Array<{ from: string; to: string; local: boolean }>): string[] {
  const importers = new Map<string, string[]>()
  for (const { from, to, local } of edges) if (local) importers.set(to, [...(importers.get(to) ?? []), from])
  const found: string[] = []
  for (const [file, by] of importers) {
    if (isTest(file) || isTestingHelper(file)) continue
    if (by.every((from) => isTest(from) || isTestingHelper(from))) found.push(`${file}: only tests import it; move it into a testing/ folder beside the code it serves`)
  }
  return found.sort()
}

function sourceEdges() {
  const edges: Array<{ from: string; to: string; line: number; kind: string; local: boolean }> = []
  for (const file of sourceFiles(src)) {
    const from = display(src, file)
    for (const ref of fileImports(file)) {
      const target = resolveSpecifier(file, ref.specifier)
      if (ref.specifier.startsWith('.') && !target) continue
      edges.push({ from, to: target ? display(src, target) : ref.specifier, line: ref.line, kind: ref.kind, local: Boolean(target) })
    }
  }
  return edges
}

// Opening a table or a transaction on the database handle: store/ alone does (issue 16: one validated write path
// per table). Holding the handle to pass it to store functions, as the composition root does, is not touching it.
const TOUCHES_DB = /\{\s*db\s*\}|\bdb\s*\.\s*(?:transaction\b|tables?\b|[a-zA-Z]+\s*\.)/g

/** One message per line of production code outside store/ that opens tables itself; paths relative to src. */
export function databaseTouches(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const found: string[] = []
  for (const { path, text } of files) {
    if (isTest(path) || layerOf(path) === 'store' || layerOf(path) === 'testing') continue
    for (const [index, line] of text.split('\n').entries()) {
      const match = line.match(TOUCHES_DB)
      if (match) found.push(`${path}:${index + 1}: ${match[0]}`)
    }
  }
  return found
}

// Opening a transaction: store/transaction.ts alone does, so every write goes through its door (`write`), which emits
// the write's events after it commits.
const OPENS_TRANSACTION = /\bdb\s*\.\s*transaction\s*\(/
const TRANSACTION_DOOR = 'store/transaction.ts'

/** One message per line of production code that opens a transaction outside store/transaction.ts; paths relative to src. */
export function transactionOpeners(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const found: string[] = []
  for (const { path, text } of files) {
    if (isTest(path) || layerOf(path) === 'testing' || path === TRANSACTION_DOOR) continue
    for (const [index, line] of text.split('\n').entries()) {
      if (OPENS_TRANSACTION.test(line)) found.push(`${path}:${index + 1}`)
    }
  }
  return found
}

/**
 * The plain `Error` subclasses production code may keep, each a signal that never leaves its module: everything
 * else is made by `defineError` (core/errors.ts), so its name, message and data are defined once and cross the
 * worker boundary whole.
 */
const LOCAL_ERROR_CLASSES = new Set([
  // Node-style errno errors: just-bash, isomorphic-git and the scripts' own `fs` branch on `code` ('ENOENT', …).
  'workspace/shell/workspace-fs.ts FsError',
  'workspace/git/fs.ts FsError',
  'workspace/javascript/memory-fs.ts FsError',
  // A git command's own ways to end, turned into its exit code and stderr inside workspace/git.
  'workspace/git/fs.ts GitAborted',
  'workspace/git/repo.ts GitExit',
  'workspace/git/args.ts UsageError',
  // Stops one read before it reads anything, caught in the same function.
  'session/prompt-mentions.ts MentionRefused',
])

const EXTENDS_ERROR = /\bclass (\w+) extends (?:Error|TypeError|RangeError)\b/

/** `path Name` of each plain Error subclass in production code that is not one of the local signals above. */
export function plainErrorClasses(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const found: string[] = []
  for (const { path, text } of files) {
    if (isTest(path) || layerOf(path) === 'testing') continue
    for (const line of text.split('\n')) {
      const name = EXTENDS_ERROR.exec(line)?.[1]
      if (name && !LOCAL_ERROR_CLASSES.has(`${path} ${name}`)) found.push(`${path} ${name}`)
    }
  }
  return found
}

describe('layers', () => {
  // Parsing every file of src takes a few seconds, more on a loaded machine.
  it('every import in src goes down the declared direction', { timeout: 60_000 }, () => {
    const found = violations(sourceEdges())
    expect(found, `Imports against the layer order (see LAYERS in src/layers.test.ts):\n${found.join('\n')}`).toEqual([])
    // Sanity: the walk really read the app.
    expect(importGraph(src).size).toBeGreaterThan(300)
  })

  it('names an import against the direction, with its file and line', () => {
    expect(
      violations([
        { from: 'core/errors.ts', to: 'store/database.ts', line: 3, kind: 'type', local: true },
        { from: 'tools/read.ts', to: 'dexie', line: 1, kind: 'static', local: false },
        { from: 'ui/app/app.tsx', to: 'worker/service.ts', line: 9, kind: 'static', local: true },
        { from: 'ui/kit/dialog/dialog.tsx', to: 'ui/session/session-view.tsx', line: 2, kind: 'static', local: true },
        { from: 'store/session-store.ts', to: 'dexie', line: 1, kind: 'static', local: false },
        { from: 'session/loop.ts', to: 'testing/scripted-model.ts', line: 4, kind: 'static', local: true },
      ]),
    ).toEqual([
      'core/errors.ts:3 (type-only): core imports store (store/database.ts); core may import nothing else in src',
      'session/loop.ts:4: production code imports the test helper testing/scripted-model.ts',
      'tools/read.ts:1: tools imports the package dexie (only store may)',
      'ui/app/app.tsx:9: ui app imports worker (worker/service.ts); ui app may import core, main-thread workspace, ui kit, ui worker client, ui',
      'ui/kit/dialog/dialog.tsx:2: ui kit imports ui (ui/session/session-view.tsx); ui kit may import core',
    ])
  })

  it('every file only tests import sits in a testing/ folder', { timeout: 60_000 }, () => {
    const found = strayHelpers(sourceEdges())
    const awaiting = found.filter((message) => AWAITING_CALLER.has(message.split(':')[0]!))
    expect(found.filter((message) => !awaiting.includes(message)), `Test helpers outside a testing/ folder:\n${found.join('\n')}`).toEqual([])
    // An entry whose caller has landed must leave the list, so the list cannot hide a helper later.
    expect(awaiting.map((message) => message.split(':')[0]).sort()).toEqual([...AWAITING_CALLER].sort())
  })

  it('names a helper under another name, and takes a testing/ folder anywhere', () => {
    expect(
      strayHelpers([
        { from: 'ui/history/revert-cut.test.ts', to: 'ui/history/test-support.tsx', local: true },
        { from: 'snapshot/diff.test.ts', to: 'snapshot/testing.ts', local: true },
        { from: 'snapshot/diff.test.ts', to: 'snapshot/testing/project.ts', local: true },
        { from: 'snapshot/testing/project.ts', to: 'workspace/local/memory-workspace.ts', local: true },
        { from: 'session/loop.test.ts', to: 'session/loop.ts', local: true },
        { from: 'worker/engine.ts', to: 'session/loop.ts', local: true },
        { from: 'session/loop.test.ts', to: 'vitest', local: false },
      ]),
    ).toEqual([
      'snapshot/testing.ts: only tests import it; move it into a testing/ folder beside the code it serves',
      'ui/history/test-support.tsx: only tests import it; move it into a testing/ folder beside the code it serves',
      'workspace/local/memory-workspace.ts: only tests import it; move it into a testing/ folder beside the code it serves',
    ])
  })

  it('only store/ opens the database tables', () => {
    const files = sourceFiles(src).map((file) => ({ path: display(src, file), text: readFileSync(file, 'utf8') }))
    const found = databaseTouches(files)
    expect(found, `Table access outside src/store (move it into a store function):\n${found.join('\n')}`).toEqual([])
  })

  it('only store/transaction.ts opens a transaction', () => {
    const files = sourceFiles(src).map((file) => ({ path: display(src, file), text: readFileSync(file, 'utf8') }))
    const found = transactionOpeners(files)
    expect(found, `Transactions opened outside src/store/transaction.ts (use write or read from it):\n${found.join('\n')}`).toEqual([])
  })

  it('names each line that opens a transaction outside the door', () => {
    expect(
      transactionOpeners([
        { path: 'store/parts.ts', text: "const { db } = context\nawait db.transaction('rw', db.parts, work)" },
        { path: 'store/share.ts', text: "return context.db.transaction('r', [db.sessions], work)" },
        { path: 'store/transaction.ts', text: "return context.db.transaction('rw', tables, work)" },
        { path: 'store/parts.test.ts', text: "await db.transaction('rw', db.parts, work)" },
      ]),
    ).toEqual(['store/parts.ts:2', 'store/share.ts:1'])
  })

  it('names each line that opens a table outside store/, and lets the handle pass through', () => {
    expect(
      databaseTouches([
        { path: 'session/fork.ts', text: "const { db } = context\nawait db.transaction('rw', db.parts, work)" },
        { path: 'session/recovery.ts', text: 'await context.db.parts.bulkPut(parts)' },
        { path: 'worker/service.ts', text: 'const store = { db: opened.db, now }\nwatchApiKeys(opened.db, keys)' },
        { path: 'store/parts.ts', text: 'await context.db.parts.bulkPut(rows)' },
        { path: 'session/fork.test.ts', text: 'await context.db.sessions.get(id)' },
      ]),
    ).toEqual(['session/fork.ts:1: { db }', 'session/fork.ts:2: db.transaction', 'session/recovery.ts:1: db.parts.'])
  })
  it('defines every error that leaves its module with defineError', () => {
    const files = sourceFiles(src).map((file) => ({ path: display(src, file), text: readFileSync(file, 'utf8') }))
    const found = plainErrorClasses(files)
    expect(found, `Plain Error subclasses (define them with defineError from core/errors.ts):\n${found.join('\n')}`).toEqual([])
  })

  it('names each plain Error subclass outside the local signals', () => {
    expect(
      plainErrorClasses([
        { path: 'mcp/hub.ts', text: 'export class McpConnectError extends Error {' },
        { path: 'workspace/git/repo.ts', text: 'export class GitExit extends Error {' },
        { path: 'tools/replace.ts', text: 'export class ReplaceError extends ReplaceErrorDefinition {' },
        { path: 'mcp/hub.test.ts', text: 'class Boom extends Error {}' },
      ]),
    ).toEqual(['mcp/hub.ts McpConnectError'])
  })
})
