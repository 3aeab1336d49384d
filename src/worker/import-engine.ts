import type * as EngineModule from './engine'

/**
 * The built worker's engine chunk, relative to the worker's own chunk: vite.config.ts (`tabcode:engine-chunk`) writes
 * the hashed name over this token when it builds the worker. The dev server leaves it as it is.
 */
const ENGINE_CHUNK = '__TABCODE_ENGINE_CHUNK__'

/**
 * Loads the engine's module, and can load it again after a failure. A browser keeps a failed module fetch in the
 * worker's module map (the HTML spec's rule; Chromium 150 keeps it), so a second `import()` of the same URL fails
 * without touching the network even once the user is back online. A retry therefore asks for the same chunk under
 * another URL (a query the server and the service worker's cache ignore); its own imports resolve to the usual URLs,
 * which were never fetched, since the chunk's failure stopped them.
 */
export function engineImporter(): () => Promise<typeof EngineModule> {
  let attempt = 0
  return () => {
    attempt += 1
    if (attempt === 1 || !/\.js$/.test(ENGINE_CHUNK)) return import('./engine')
    return import(/* @vite-ignore */ `${new URL(ENGINE_CHUNK, import.meta.url).href}?attempt=${attempt}`) as Promise<typeof EngineModule>
  }
}
