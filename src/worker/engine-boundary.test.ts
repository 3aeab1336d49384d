import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fileImports, importGraph, sourceFiles } from '../../scripts/import-graph.mjs'

// The engine's chunk carries what the AI SDK's modules it imports pull in. Its generation functions bring the SDK's
// whole step machinery: titles through `streamText` alone were a quarter of the chunk (130.3 KiB gzip with it, 97.7
// without, `npx vite build`). Every model call goes through session/model-call.ts `streamModelCall`, on the
// provider's `doStream`, so only these few helpers are imported as values; a new one is a choice to make here.
const ALLOWED: Record<string, string[]> = {
  ai: ['StreamProviderError'],
  'ai/internal': ['asLanguageModelUsage', 'convertToLanguageModelPrompt', 'resolveLanguageModel', 'standardizePrompt'],
}
const src = join(dirname(fileURLToPath(import.meta.url)), '..')
const IMPORT = /^\s*import\s+(?!type\b)([\s\S]*?)\s+from\s+['"](ai(?:\/[^'"]+)?)['"]/gm

/** Every value the app's code (not its tests or test helpers) imports from the AI SDK, as `file: name from module`. */
function valueImports(): string[] {
  const found: string[] = []
  for (const file of sourceFiles(src, { includeTests: false })) {
    if (file.split(/[\\/]/).includes('testing')) continue
    for (const [, clause, module] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const named = /\{([\s\S]*)\}/.exec(clause!)?.[1] ?? ''
      const names = named
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name && !name.startsWith('type '))
        .map((name) => name.split(/\s+as\s+/)[0]!)
      // A default or namespace import takes everything the module has.
      if (!clause!.trim().startsWith('{')) names.push(clause!.split(',')[0]!.trim())
      for (const name of names) found.push(`${relative(src, file)}: ${name} from ${module}`)
    }
  }
  return found
}

describe("the engine's model calls", () => {
  it("import nothing of the AI SDK but the helpers streamModelCall needs (no streamText or generateText)", () => {
    const found = valueImports()
    expect(found.filter((entry) => !ALLOWED[entry.split(' from ')[1]!]?.includes(entry.split(': ')[1]!.split(' from ')[0]!))).toEqual([])
    // Sanity: the scan sees the model call's own imports.
    expect(found).toContain('session/model-call.ts: StreamProviderError from ai')
  })
})

describe("the engine's HTML converters", () => {
  it('are loaded only when webfetch meets a page: nothing imports them but with import()', () => {
    const converter = join(src, 'tools', 'webfetch-content.ts')
    const importers = [...importGraph(src, { includeTests: false })].flatMap(([file, edges]) =>
      edges.filter((edge) => edge.to === converter).map((edge) => `${relative(src, file)} ${edge.kind}`),
    )
    expect(importers).toEqual(['tools/webfetch.ts dynamic'])
    // turndown and domino (~65 KiB gzip) come in through it and just-bash's shim, both loaded on first use.
    const direct = sourceFiles(src, { includeTests: false }).filter((file) =>
      fileImports(file).some((entry) => ['turndown', '@mixmark-io/domino'].includes(entry.specifier)),
    )
    expect(direct.map((file) => relative(src, file)).sort()).toEqual(['tools/webfetch-content.ts', 'workspace/shell/browser/turndown.ts'])
  })
})
