// The import graph of a source tree, shared by check-cycles.mjs and the layers test.
// A real parser (Babel's, with the TypeScript and JSX plugins: TypeScript 7 has no JS API, and es-module-lexer
// stops at JSX) reads every specifier: `import`, `import type`, `export … from`, `import('…')` as a call and as a
// type (`typeof import('…')`), so type-only imports count as much as any other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { parse } from '@babel/parser'

const SOURCE = /\.tsx?$/

/** Every .ts/.tsx file under `root`, tests included unless `includeTests` is false. */
export function sourceFiles(root, { includeTests = true } = {}) {
  const files = []
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (SOURCE.test(name) && !name.endsWith('.d.ts') && (includeTests || !/\.test\.tsx?$/.test(name))) files.push(path)
    }
  }
  walk(root)
  return files
}

/** The file a relative specifier names: the path itself, with .ts/.tsx, or its index.ts/index.tsx. */
export function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined
  const base = resolve(dirname(from), specifier)
  // `./x.js` written for a `.ts` file (NodeNext style) names `./x.ts`.
  const stripped = base.replace(/\.(m?js|jsx)$/, '')
  for (const candidate of [base, `${stripped}.ts`, `${stripped}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

/**
 * What one file imports: `{specifier, line, kind, start, end}` (`start`/`end`: the string literal's offsets, quotes
 * included) for each import, export-from and dynamic import, where `kind` is
 * `type` (erased at runtime: `import type`, `export type … from`, every binding marked `type`, `import('…')` in a
 * type), `dynamic` (an `import('…')` call, loaded on demand) or `static`.
 */
export function fileImports(file) {
  const ast = parse(readFileSync(file, 'utf8'), {
    sourceType: 'module',
    sourceFilename: file,
    plugins: file.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'],
  })
  const found = []
  const add = (literal, kind) => {
    if (literal?.type === 'StringLiteral') found.push({ specifier: literal.value, line: literal.loc.start.line, kind, start: literal.start, end: literal.end })
  }
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return
    switch (node.type) {
      case 'ImportDeclaration': {
        const named = node.specifiers
        const erased = node.importKind === 'type' || (named.length > 0 && named.every((s) => s.importKind === 'type'))
        add(node.source, erased ? 'type' : 'static')
        return
      }
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
        if (node.source) {
          const named = node.specifiers ?? []
          const erased = node.exportKind === 'type' || (named.length > 0 && named.every((s) => s.exportKind === 'type'))
          add(node.source, erased ? 'type' : 'static')
          return
        }
        break
      case 'ImportExpression':
        add(node.source, 'dynamic')
        break
      case 'CallExpression':
        if (node.callee?.type === 'Import') add(node.arguments[0], 'dynamic')
        break
      case 'TSImportType':
        // Babel 7 keeps the string as `argument`; its TSLiteralType form (Babel 8) wraps it in `literal`.
        add(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument, 'type')
        break
    }
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'start' || key === 'end' || key === 'leadingComments' || key === 'trailingComments') continue
      const value = node[key]
      if (Array.isArray(value)) for (const child of value) visit(child)
      else if (value && typeof value === 'object') visit(value)
    }
  }
  visit(ast.program)
  return found
}

/** `Map<file, {to, specifier, line, kind}[]>` over the files under `root`, local (relative) imports only. */
export function importGraph(root, options) {
  const graph = new Map()
  for (const file of sourceFiles(root, options)) {
    const edges = []
    for (const ref of fileImports(file)) {
      const to = resolveSpecifier(file, ref.specifier)
      if (to) edges.push({ ...ref, to })
    }
    graph.set(file, edges)
  }
  return graph
}

/** A path relative to `root` with forward slashes, for messages that read the same on every OS. */
export function display(root, file) {
  return relative(root, file).split(sep).join('/')
}
