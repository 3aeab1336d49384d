import { describe, expect, it } from 'vitest'
import { markDiscardedPromises } from './discarded-promises'

describe('discarded promises', () => {
  it('hands calls and import() whose value a statement throws away to the hook, after them, nested ones too', () => {
    expect(markDiscardedPromises("main()\np.then(f);\na?.b()\nimport('./x')", 'module')).toBe(
      "main()?.[__nodeDiscarded]\np.then(f)?.[__nodeDiscarded];\na?.b()?.[__nodeDiscarded]\nimport('./x')?.[__nodeDiscarded]",
    )
    expect(markDiscardedPromises('run(() => { go() })', 'commonjs')).toBe('run(() => { go()?.[__nodeDiscarded] })?.[__nodeDiscarded]')
  })

  it('hands on what a thrown-away expression throws away: new Promise, the right of && and ||, both branches, sequences, void', () => {
    expect(markDiscardedPromises('new Promise((_, no) => no(1))', 'script')).toBe('new Promise((_, no) => no(1))?.[__nodeDiscarded]')
    expect(markDiscardedPromises('ready && start()\nready() || stop()', 'script')).toBe('ready && start()?.[__nodeDiscarded]\nready() || stop()?.[__nodeDiscarded]')
    expect(markDiscardedPromises('ok ? a() : b(), void c()', 'script')).toBe('ok ? a()?.[__nodeDiscarded] : b()?.[__nodeDiscarded], void c()?.[__nodeDiscarded]')
  })

  it('leaves values that are kept, other statements, and source that does not parse as they are', () => {
    const kept = "'use strict'\nconst p = main()\nx = f()\nawait p\nreturn g()"
    expect(markDiscardedPromises(kept.replace('await p\n', ''), 'commonjs')).toBe(kept.replace('await p\n', ''))
    expect(markDiscardedPromises('const p = main()\nawait p', 'module')).toBe('const p = main()\nawait p')
    expect(markDiscardedPromises('const a = ;', 'script')).toBe('const a = ;')
  })
})
