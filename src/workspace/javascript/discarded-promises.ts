import { parse, type Node } from 'acorn'

/** The global holding the symbol whose getter on Promise.prototype (the prelude's) takes a discarded promise. */
export const DISCARDED_HOOK = '__nodeDiscarded'

/** Expressions whose value may be a promise: calls (`main()`, `p.then(f)`, `a?.b()`) and `import()`. */
const PROMISE_MAKERS = new Set(['CallExpression', 'ImportExpression', 'ChainExpression'])

/**
 * The source with every expression statement that may yield a promise handed to the prelude (`main()` becomes
 * `main()?.[__nodeDiscarded]`, a getter on Promise.prototype). QuickJS as embedded here has no hook for unhandled
 * rejections, and a promise whose value a statement throws away can be handled by nobody: when it rejects, Node
 * reports it and exits 1, and so does the prelude through this hook. The hook goes after the expression, so lines
 * and columns (carets, stack traces, test locations) stay as in the file. Source that does not parse is returned as
 * it is, for QuickJS to report its syntax error.
 */
export function markDiscardedPromises(source: string, kind: 'module' | 'commonjs' | 'script'): string {
  let program: Node
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: kind, allowHashBang: true, ...(kind === 'module' ? { allowAwaitOutsideFunction: true } : {}) })
  } catch {
    return source
  }
  const ends: number[] = []
  visit(program, (node) => {
    if (node.type !== 'ExpressionStatement') return
    const expression = (node as Node & { expression: Node }).expression
    if (PROMISE_MAKERS.has(expression.type)) ends.push(expression.end)
  })
  if (ends.length === 0) return source
  ends.sort((a, b) => a - b)
  let out = ''
  let at = 0
  for (const end of ends) {
    out += `${source.slice(at, end)}?.[${DISCARDED_HOOK}]`
    at = end
  }
  return out + source.slice(at)
}

function visit(node: Node, enter: (node: Node) => void): void {
  enter(node)
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item, enter)
    } else if (isNode(value)) visit(value, enter)
  }
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && typeof (value as { start?: unknown }).start === 'number'
