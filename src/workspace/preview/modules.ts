import { init, parse, type Import } from 'es-module-lexer'
import type { BuildContext } from './context'
import { rewriteCss } from './css'
import { dataUrl, isJavaScript, moduleKey, resolveReference, text } from './references'

/** Bare names the page's own import map sends to project files (`"lib": "./lib/index.js"`, `"lib/": "./lib/"`). */
export type BareNames = ReadonlyMap<string, string>

export interface ModuleMap {
  /** A module's source with each specifier it imports (statically or by `import()`) made into an import-map key. */
  rewrite(source: string, file: string): Promise<string>
  /** Waits for every module reached so far (and what those reach), then gives the import map's `imports`. */
  imports(): Promise<Record<string, string>>
}

/**
 * The project's ES modules as `data:` URLs under absolute keys (`tabcode-preview:/src/util.js`), for an import map:
 * a module's relative specifiers cannot resolve against a `data:` URL, so each one is rewritten to its target's
 * key. Modules are keyed by path, so a module imported from two places is one instance, and cycles need no order.
 */
export function createModuleMap(context: BuildContext, bare: BareNames): ModuleMap {
  const loads = new Map<string, Promise<void>>()
  const entries: Record<string, string> = {}

  function include(path: string, kind: 'javascript' | 'json' | 'css'): string {
    const key = moduleKey(path)
    if (!loads.has(key)) loads.set(key, load(path, kind, key))
    return key
  }

  async function load(path: string, kind: 'javascript' | 'json' | 'css', key: string): Promise<void> {
    const bytes = await context.read(path)
    if (!bytes) return
    if (kind === 'json') entries[key] = dataUrl('application/json', bytes)
    else if (kind === 'css') entries[key] = dataUrl('text/css', await rewriteCss(text(bytes), path, context))
    // The source URL names the module in the frame's errors and devtools, and keeps two identical files two modules.
    else entries[key] = dataUrl('text/javascript', `${await rewrite(text(bytes), path)}\n//# sourceURL=${key}\n`)
  }

  async function target(specifier: string, file: string, attributes: ReadonlyArray<readonly [string, string]> | null): Promise<string | undefined> {
    let name = specifier
    const relative = /^(\.{1,2}\/|\/)/.test(name)
    if (!relative && !/^[a-z][a-z0-9+.-]*:/i.test(name)) {
      const mapped = bareTarget(bare, name)
      if (mapped === undefined) {
        context.report({
          type: 'bare-import',
          file,
          reference: specifier,
          message: `${specifier} is an npm package: a bundler or a dev server resolves it, a browser alone does not.`,
        })
        return undefined
      }
      name = mapped
    }
    const reference = resolveReference(file, name)
    if (reference.type === 'inline') return undefined
    if (reference.type === 'external') {
      context.report({ type: 'external', file, reference: specifier, message: `${specifier} is on another host; the preview loads nothing from the network.` })
      return undefined
    }
    if (!(await context.read(reference.path))) {
      context.report({ type: 'missing', file, reference: specifier, message: `${specifier} is not in the project.` })
      return undefined
    }
    const type = attributes?.find(([key]) => key === 'type')?.[1]
    if (type === 'json' || type === 'css') return include(reference.path, type)
    if (!isJavaScript(reference.path)) {
      context.report({
        type: 'not-a-module',
        file,
        reference: specifier,
        message: `${specifier} is not JavaScript: a browser imports it only through a bundler (a dev server), or with \`with { type: 'json' }\` or 'css'.`,
      })
      return undefined
    }
    return include(reference.path, 'javascript')
  }

  async function rewrite(source: string, file: string): Promise<string> {
    await init()
    let imports: readonly Import[]
    try {
      ;[imports] = parse(source, file)
    } catch (error) {
      context.report({ type: 'syntax', file, reference: '', message: `${file} could not be read as a module: ${error instanceof Error ? error.message : String(error)}` })
      return source
    }
    const edits = await Promise.all(
      imports.map(async (entry): Promise<[number, number, string] | undefined> => {
        if (entry.type === 'import-meta' || ('typeOnly' in entry && entry.typeOnly)) return undefined
        if (entry.type === 'dynamic' && (entry.specifier === undefined || entry.glob)) {
          const written = source.slice(entry.start, entry.end)
          context.report({ type: 'computed-import', file, reference: written, message: `import(${written}) names its module at run time; the preview holds only the modules named in the code.` })
          return undefined
        }
        const key = await target(entry.specifier!, file, entry.attributes)
        if (key === undefined) return undefined
        // A static specifier's range is inside its quotes; a dynamic one's is the whole string literal.
        return [entry.start, entry.end, entry.type === 'dynamic' ? JSON.stringify(key) : key]
      }),
    )
    let result = source
    for (const edit of edits.filter((edit) => edit !== undefined).sort((a, b) => b[0] - a[0])) result = result.slice(0, edit[0]) + edit[2] + result.slice(edit[1])
    return result
  }

  return {
    rewrite,
    async imports() {
      // Loading a module starts the loads of what it imports: wait until a round adds none.
      for (let count = -1; count !== loads.size; ) {
        count = loads.size
        await Promise.all(loads.values())
      }
      // In key order, not the order the reads finished: the same files make the same document (and digest).
      return Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    },
  }
}

function bareTarget(bare: BareNames, name: string): string | undefined {
  const exact = bare.get(name)
  if (exact !== undefined) return exact
  let best: string | undefined
  for (const prefix of bare.keys()) if (prefix.endsWith('/') && name.startsWith(prefix) && (!best || prefix.length > best.length)) best = prefix
  return best === undefined ? undefined : bare.get(best)! + name.slice(best.length)
}
