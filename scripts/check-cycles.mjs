#!/usr/bin/env node
// Import cycles among the app's source files, type-only imports included: a type-only cycle still means two
// modules cannot be understood (or moved to another layer) apart. Prints each cycle as a chain of files and exits 1
// when there is any.
//   node scripts/check-cycles.mjs [root]      (root defaults to src/)
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { display, importGraph } from './import-graph.mjs'

/**
 * The cycles of `graph` (`Map<node, {to}[]>`): for every strongly connected component of more than one file (or a
 * file that imports itself), the shortest cycle through each of its files, each cycle once. That names every file
 * caught in a knot without listing the exponentially many longer loops through it.
 */
export function findCycles(graph) {
  const cycles = []
  const seen = new Set()
  for (const component of stronglyConnected(graph)) {
    const members = new Set(component)
    const selfLoop = component.length === 1 && (graph.get(component[0]) ?? []).some((e) => e.to === component[0])
    if (component.length === 1 && !selfLoop) continue
    for (const start of [...component].sort()) {
      const cycle = shortestCycle(graph, start, members)
      if (!cycle) continue
      const key = canonical(cycle).join('\0')
      if (seen.has(key)) continue
      seen.add(key)
      cycles.push(canonical(cycle))
    }
  }
  return cycles.sort((a, b) => a.join('\0').localeCompare(b.join('\0')))
}

// Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
function stronglyConnected(graph) {
  const index = new Map()
  const low = new Map()
  const onStack = new Set()
  const stack = []
  const components = []
  let counter = 0
  for (const root of graph.keys()) {
    if (index.has(root)) continue
    const work = [{ node: root, edge: 0 }]
    index.set(root, counter)
    low.set(root, counter++)
    stack.push(root)
    onStack.add(root)
    while (work.length) {
      const frame = work[work.length - 1]
      const edges = graph.get(frame.node) ?? []
      if (frame.edge < edges.length) {
        const next = edges[frame.edge++].to
        if (!graph.has(next)) continue
        if (!index.has(next)) {
          index.set(next, counter)
          low.set(next, counter++)
          stack.push(next)
          onStack.add(next)
          work.push({ node: next, edge: 0 })
        } else if (onStack.has(next)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(next)))
        }
        continue
      }
      work.pop()
      if (work.length) {
        const parent = work[work.length - 1].node
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)))
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = []
        let member
        do {
          member = stack.pop()
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        components.push(component)
      }
    }
  }
  return components
}

// Breadth-first from `start` back to it, staying inside its component.
function shortestCycle(graph, start, members) {
  const parent = new Map([[start, undefined]])
  const queue = [start]
  while (queue.length) {
    const node = queue.shift()
    for (const { to } of graph.get(node) ?? []) {
      if (!members.has(to)) continue
      if (to === start) {
        const path = []
        for (let step = node; step !== undefined; step = parent.get(step)) path.unshift(step)
        return path
      }
      if (!parent.has(to)) {
        parent.set(to, node)
        queue.push(to)
      }
    }
  }
  return undefined
}

// The same loop read from its smallest file, so a → b → a and b → a → b count once.
function canonical(cycle) {
  let best = 0
  for (let i = 1; i < cycle.length; i++) if (cycle[i] < cycle[best]) best = i
  return [...cycle.slice(best), ...cycle.slice(0, best)]
}

/** The report for `root`: `{cycles, lines}`, with each cycle as `a → b → … → a` relative to `root`. */
export function checkCycles(root) {
  const graph = importGraph(root)
  const cycles = findCycles(graph)
  const lines = cycles.map((cycle) => [...cycle, cycle[0]].map((file) => display(root, file)).join(' → '))
  return { cycles, lines }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL('../src', import.meta.url)))
  const { lines } = checkCycles(root)
  if (lines.length === 0) {
    console.log('No import cycles.')
  } else {
    console.error(`${lines.length} import cycle${lines.length === 1 ? '' : 's'} (type-only imports included):`)
    for (const line of lines) console.error(`  ${line}`)
    process.exitCode = 1
  }
}
