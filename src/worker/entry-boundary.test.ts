import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The worker's entry answers the first screen before the engine (engine.ts) has loaded, so its static import graph
// (what loads before the first answer; type-only imports are erased) must stay clear of the heavy code: the AI SDK
// and its providers, the agent loop, the tools, the shell. Names the chain to any offender.
const HEAVY_PACKAGES = ['ai', '@ai-sdk', 'just-bash', 'isomorphic-git', 'diff']
const HEAVY_FOLDERS = ['session', 'mcp', 'tools', 'provider/language-model', 'snapshot', 'worker/engine', 'workspace/webcontainer']
const src = join(dirname(fileURLToPath(import.meta.url)), '..')
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate
  return undefined
}

function heavyChains(): { offenders: string[]; files: number; loaded: string[] } {
  const entry = join(src, 'worker', 'worker.ts')
  const parents = new Map<string, string | undefined>([[entry, undefined]])
  const queue = [entry]
  const offenders: string[] = []
  const chain = (file: string) => {
    const steps: string[] = []
    for (let step: string | undefined = file; step; step = parents.get(step)) steps.unshift(relative(src, step))
    return steps.join(' → ')
  }
  while (queue.length) {
    const file = queue.shift()!
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith('.')) {
        const target = resolveLocal(file, specifier!)
        if (!target || parents.has(target)) continue
        parents.set(target, file)
        const path = relative(src, target).replace(/\.ts$/, '')
        if (HEAVY_FOLDERS.some((folder) => path === folder || path.startsWith(`${folder}/`))) offenders.push(chain(target))
        else queue.push(target)
        continue
      }
      const name = specifier!.startsWith('@') ? specifier!.split('/').slice(0, 2).join('/') : specifier!.split('/')[0]!
      if (HEAVY_PACKAGES.includes(name) || HEAVY_PACKAGES.includes(name.split('/')[0]!)) offenders.push(`${chain(file)} → ${specifier}`)
    }
  }
  return { offenders, files: parents.size, loaded: [...parents.keys()].map((file) => relative(src, file)) }
}

describe("the worker's entry", () => {
  it('loads the store and the read handlers without the loop, providers, AI SDK or tools', () => {
    const { offenders, files } = heavyChains()
    expect(offenders).toEqual([])
    // Sanity: the walk really covered the store.
    expect(files).toBeGreaterThan(20)
  })

  it("holds what showing a session needs offline: the repair on open and the stored files' reads", () => {
    // Only the shell is precached: whatever opening a session calls must not wait on the engine's chunk.
    const { loaded } = heavyChains()
    expect(loaded).toEqual(
      expect.arrayContaining(['store/recovery.ts', 'worker/session-repair.ts', 'worker/workspace-read-handlers.ts', 'worker/workspace-manager.ts', 'workspace/local/stored-workspace.ts']),
    )
  })

  it('leaves the model facts snapshot out: it is imported on the first lookup, never at boot', () => {
    const { loaded } = heavyChains()
    const statically = loaded.filter((file) =>
      [...readFileSync(join(src, file), 'utf8').matchAll(STATIC_IMPORT)].some((match) => match[1]!.endsWith('models-snapshot.json')),
    )
    expect(statically).toEqual([])
    // Sanity: what loads it is in the entry (settings answer from there), so the walk did reach it.
    expect(loaded).toContain('core/provider/built-in-facts.ts')
  })
})
