import { parse, type Node } from 'acorn'

/** What the prelude calls on a discarded value: a promise there has no other owner, so its rejection is unhandled. */
export const DISCARDED_HOOK = '__nodeDiscarded'

/** Expressions whose value may be a promise: calls (`main()`, `p.then(f)`, `a?.b()`) and `import()`. */
const PROMISE_MAKERS = new Set(['CallExpression', 'ImportExpression', 'ChainExpression'])

/**
 * The source with every expression statement that may yield a promise passed through the discarded hook
 * (`main()` becomes `__nodeDiscarded(main())`). QuickJS as embedded here has no hook for unhandled rejections, and
 * a promise whose value a statement throws away can be handled by nobody: when it rejects, Node reports it and
 * exits 1, and so does the prelude through this hook. Lines stay where they are; only columns after the hook move.
 * Source that does not parse is returned as it is, for QuickJS to report its syntax error.
 */
export function markDiscardedPromises(source: string, kind: 'module' | 'commonjs' | 'script'): string {
  let program: Node
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: kind, allowHashBang: true, ...(kind === 'module' ? { allowAwaitOutsideFunction: true } : {}) })
  } catch {
    return source
  }
  const marks: { start: number; end: number }[] = []
  visit(program, (node) => {
    if (node.type !== 'ExpressionStatement') return
    const expression = (node as Node & { expression: Node }).expression
    if (PROMISE_MAKERS.has(expression.type)) marks.push({ start: expression.start, end: expression.end })
  })
  if (marks.length === 0) return source
  // Statements nest (a callback's body inside a call), so the openings and closings are placed one by one.
  const inserts = marks.flatMap((mark) => [
    { at: mark.start, text: `${DISCARDED_HOOK}(` },
    { at: mark.end, text: ')' },
  ])
  inserts.sort((a, b) => a.at - b.at || (a.text === ')' ? -1 : 1))
  let out = ''
  let at = 0
  for (const insert of inserts) {
    out += source.slice(at, insert.at) + insert.text
    at = insert.at
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
