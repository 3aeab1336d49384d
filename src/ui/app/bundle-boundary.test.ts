import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The main thread must stay small: zod, Dexie and the AI SDK (with its providers) belong to the worker. This walks the runtime import graph from
// main.tsx (type-only imports are erased by the compiler, so they are skipped) and names the path to any offender.
const FORBIDDEN = ['zod', 'dexie', 'ai', '@ai-sdk']
const here = dirname(fileURLToPath(import.meta.url))
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm
const DYNAMIC_IMPORT = /import\(\s*['"]([^'"]+)['"]\s*\)/g

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate
  }
  return undefined
}

function runtimeImports(file: string, lazy = true): string[] {
  const source = readFileSync(file, 'utf8')
  return [...source.matchAll(STATIC_IMPORT), ...(lazy ? source.matchAll(DYNAMIC_IMPORT) : [])].map((match) => match[1]!)
}

/** The import chains from main.tsx to packages in `forbidden`; `lazy` follows dynamic `import()`s too. */
function offendersOf(forbidden: string[], lazy: boolean): { offenders: string[]; files: number; reached: string[] } {
  const entry = join(here, 'main.tsx')
  const parents = new Map<string, string | undefined>([[entry, undefined]])
  const queue = [entry]
  const offenders: string[] = []
  while (queue.length) {
    const file = queue.shift()!
    for (const specifier of runtimeImports(file, lazy)) {
      if (specifier.startsWith('.')) {
        const target = resolveLocal(file, specifier)
        if (target && !parents.has(target)) {
          parents.set(target, file)
          queue.push(target)
        }
        continue
      }
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!
      const scope = specifier.startsWith('@') ? specifier.split('/')[0]! : undefined
      if (!forbidden.includes(name) && !(scope && forbidden.includes(scope))) continue
      const chain: string[] = []
      for (let step: string | undefined = file; step; step = parents.get(step)) chain.unshift(relative(here, step))
      offenders.push(`${chain.join(' → ')} → ${specifier}`)
    }
  }
  return { offenders, files: parents.size, reached: [...parents.keys()].map((file) => relative(here, file)) }
}

describe('main-thread bundle boundary', () => {
  it('never reaches zod, dexie or the AI SDK at runtime from main.tsx', () => {
    const { offenders, files } = offendersOf(FORBIDDEN, true)
    expect(offenders).toEqual([])
    // Sanity: the walk really covered the app.
    expect(files).toBeGreaterThan(20)
  })

  it('keeps the session view (markdown through marked) out of the first screen: never statically from main.tsx', () => {
    // Evaluated with the first screen's bundle, it made a first visit's longest task (issue 18).
    const { offenders, files } = offendersOf(['marked'], false)
    expect(offenders).toEqual([])
    expect(files).toBeGreaterThan(20)
  })

  it('loads the editor, the terminal and the diff library on first use only: never statically from main.tsx', () => {
    const { offenders, files } = offendersOf(['@codemirror', '@lezer', '@xterm', 'diff'], false)
    expect(offenders).toEqual([])
    expect(files).toBeGreaterThan(20)
  })

  it('loads the usage view on first open only: nothing under ui/usage statically from main.tsx', () => {
    // It reads every stored reply when it opens; the first screen needs neither its code nor that read.
    const { reached } = offendersOf([], false)
    expect(reached.filter((file) => file.startsWith('../usage/'))).toEqual([])
    expect(offendersOf([], true).reached).toContain('../usage/usage-dialog.tsx')
  })
})
