import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { applyMoves, planMoves, readMoves } from './move-files.mjs'

const roots = []
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'move-files-'))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}
const read = (root, path) => readFileSync(join(root, path), 'utf8')
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

describe('move-files', () => {
  it('moves files and rewrites the imports of and in them, keeping how each was written', () => {
    const root = tree({
      'src/session/schema/index.ts': "export * from './part'\n",
      'src/session/schema/part.ts': "export type Part = { id: string }\n",
      'src/session/id.ts': 'export const id = 1\n',
      'src/session/loop.ts': "import type { Part } from './schema'\nimport { id } from './id'\nimport './loop.css'\nconst later = () => import('./id')\nexport { id, later }\nexport type { Part }\n",
      'src/session/loop.css': 'p {}\n',
      'src/ui/view.tsx': "import type { Part } from \"../session/schema\"\nimport { id } from '../session/id.ts'\nexport const View = (p: Part) => <p>{id}{p.id}</p>\n",
      'e2e/seed.spec.ts': "import { id } from '../src/session/id'\n",
      'src/permission/index.ts': "export const allow = 1\n",
      'src/worker/gate.ts': "import { allow } from '../permission'\nexport { allow }\n",
    })
    const moves = readMoves(root, '# core\nsrc/session/schema/ src/core/schema/\nsrc/session/id.ts src/core/id.ts\nsrc/session/loop.ts src/runtime/loop.ts\nsrc/permission/index.ts src/runtime/permission.ts\n')
    applyMoves(root, planMoves(root, moves))
    expect(existsSync(join(root, 'src/session/id.ts'))).toBe(false)
    expect(read(root, 'src/core/schema/index.ts')).toBe("export * from './part'\n")
    expect(read(root, 'src/runtime/loop.ts')).toBe(
      "import type { Part } from '../core/schema'\nimport { id } from '../core/id'\nimport '../session/loop.css'\nconst later = () => import('../core/id')\nexport { id, later }\nexport type { Part }\n",
    )
    expect(read(root, 'src/ui/view.tsx')).toContain("import type { Part } from \"../core/schema\"\nimport { id } from '../core/id.ts'\n")
    expect(read(root, 'e2e/seed.spec.ts')).toBe("import { id } from '../src/core/id'\n")
    expect(read(root, 'src/worker/gate.ts')).toBe("import { allow } from '../runtime/permission'\nexport { allow }\n")
  })

  it('refuses a move onto an existing file or two files onto one', () => {
    const root = tree({ 'src/a.ts': '', 'src/b.ts': '', 'src/c.ts': '' })
    expect(() => readMoves(root, 'src/a.ts src/b.ts\n')).toThrow('src/b.ts exists already')
    expect(() => readMoves(root, 'src/a.ts src/d.ts\nsrc/c.ts src/d.ts\n')).toThrow('both move to src/d.ts')
  })
})
