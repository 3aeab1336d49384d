import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { checkCycles } from './check-cycles.mjs'

const script = join(dirname(fileURLToPath(import.meta.url)), 'check-cycles.mjs')
const roots = []

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-cycles-'))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

function cli(root) {
  const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' })
  return { code: run.status, out: run.stdout + run.stderr }
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

describe('check-cycles', () => {
  it('passes a tree whose imports go one way, and says so', () => {
    const root = tree({
      'core/id.ts': 'export const id = 1\n',
      'store/db.ts': "import { id } from '../core/id'\nexport type { Id } from '../core/types'\nexport const db = id\n",
      'core/types.ts': 'export type Id = string\n',
      'ui/view.tsx': "import { db } from '../store/db'\nexport const View = () => <p>it's {db}</p>\n",
    })
    expect(checkCycles(root).lines).toEqual([])
    expect(cli(root)).toEqual({ code: 0, out: 'No import cycles.\n' })
  })

  it('reports a cycle made only of type imports, as a chain of files', () => {
    const root = tree({
      'provider/store.ts': "import type { Settings } from '../worker/protocol'\nexport const read = (s: Settings) => s\n",
      'worker/protocol.ts': "import { type AgentSettings } from '../session/agent-settings'\nexport type Settings = AgentSettings\n",
      'session/agent-settings.ts': "export type AgentSettings = ReturnType<typeof import('../provider/store').read>\n",
    })
    expect(checkCycles(root).lines).toEqual(['provider/store.ts → worker/protocol.ts → session/agent-settings.ts → provider/store.ts'])
    const { code, out } = cli(root)
    expect(code).toBe(1)
    expect(out).toContain('1 import cycle (type-only imports included):')
    expect(out).toContain('provider/store.ts → worker/protocol.ts → session/agent-settings.ts → provider/store.ts')
  })

  it('follows export-from, dynamic imports, .tsx files and folder index files', () => {
    const root = tree({
      'ui/dialog.tsx': "import { Picker } from './picker'\nexport const Dialog = () => <Picker />\n",
      'ui/picker.tsx': "export const Picker = () => <button onClick={() => import('./dialog')}>New</button>\n",
      'loop/index.ts': "export { compact } from '../compaction'\nexport const run = 1\n",
      'compaction/index.ts': "import { run } from '../loop'\nexport const compact = run\n",
    })
    expect(checkCycles(root).lines).toEqual([
      'compaction/index.ts → loop/index.ts → compaction/index.ts',
      'ui/dialog.tsx → ui/picker.tsx → ui/dialog.tsx',
    ])
  })

  it('names every file of a knot once, each in its shortest cycle', () => {
    // a ↔ b and b → c → a: one component, two loops; the longer a → b → c → a is implied and not listed.
    const root = tree({
      'a.ts': "import './b'\n",
      'b.ts': "import './a'\nimport './c'\n",
      'c.ts': "import './a'\n",
      'clean.ts': "import './a'\n",
    })
    expect(checkCycles(root).lines).toEqual(['a.ts → b.ts → a.ts', 'a.ts → b.ts → c.ts → a.ts'])
  })

  it('ignores packages and imports in comments or strings', () => {
    const root = tree({
      'a.ts': "import { z } from 'zod'\n// import './b'\nconst text = \"import './b'\"\nexport { z, text }\n",
      'b.ts': "import './a'\n",
    })
    expect(checkCycles(root).lines).toEqual([])
  })
})
