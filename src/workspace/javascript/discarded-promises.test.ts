import { describe, expect, it } from 'vitest'
import { markDiscardedPromises } from './discarded-promises'

describe('discarded promises', () => {
  it('passes calls and import() whose value a statement throws away through the hook, nested ones too', () => {
    expect(markDiscardedPromises("main()\np.then(f);\na?.b()\nimport('./x')", 'module')).toBe(
      "__nodeDiscarded(main())\n__nodeDiscarded(p.then(f));\n__nodeDiscarded(a?.b())\n__nodeDiscarded(import('./x'))",
    )
    expect(markDiscardedPromises('run(() => { go() })', 'commonjs')).toBe('__nodeDiscarded(run(() => { __nodeDiscarded(go()) }))')
  })

  it('leaves values that are kept, other statements, and source that does not parse as they are', () => {
    const kept = "'use strict'\nconst p = main()\nx = f()\nawait p\nreturn g()"
    expect(markDiscardedPromises(kept.replace('await p\n', ''), 'commonjs')).toBe(kept.replace('await p\n', ''))
    expect(markDiscardedPromises('const p = main()\nawait p', 'module')).toBe('const p = main()\nawait p')
    expect(markDiscardedPromises('const a = ;', 'script')).toBe('const a = ;')
  })
})
