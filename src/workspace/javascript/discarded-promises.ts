import { parse, type Node } from 'acorn'

/** The global holding the symbol whose getter on Promise.prototype (the prelude's) takes a discarded promise. */
export const DISCARDED_HOOK = '__nodeDiscarded'

/** Expressions whose value may be a promise: calls (`main()`, `p.then(f)`, `a?.b()`), `import()` and `new Promise(…)`. */
const PROMISE_MAKERS = new Set(['CallExpression', 'ImportExpression', 'ChainExpression', 'NewExpression'])

export function markDiscardedPromises(source: string, kind: 'module' | 'commonjs' | 'script'): string {
  let program: Node
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: kind, allowHashBang: true, ...(kind === 'module' ? { allowAwaitOutsideFunction: true } : {}) })
  } catch {
    return source
  }
  const ends: number[] = []
  visit(program, (node) => {
    if (node.type === 'ExpressionStatement') markThrownAway((node as Node & { expression: Node }).expression, ends)
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

/**
 * The ends of the promise makers whose value `expression`, itself thrown away, throws away too: the right side of
 * `ready && start()`, both branches of a conditional, every part of a sequence, what `void` discards. Never the left
 * side of `&&`, `||` or `??`: its value decides what runs next, and the hook's own value (undefined) would change that.
 */
function markThrownAway(expression: Node, ends: number[]): void {
  const node = expression as Node & { right?: Node; consequent?: Node; alternate?: Node; expressions?: Node[]; operator?: string; argument?: Node }
  if (PROMISE_MAKERS.has(node.type)) ends.push(node.end)
  else if (node.type === 'LogicalExpression') markThrownAway(node.right!, ends)
  else if (node.type === 'ConditionalExpression') {
    markThrownAway(node.consequent!, ends)
    markThrownAway(node.alternate!, ends)
  } else if (node.type === 'SequenceExpression') for (const part of node.expressions!) markThrownAway(part, ends)
  else if (node.type === 'UnaryExpression' && node.operator === 'void') markThrownAway(node.argument!, ends)
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
