import { describe, expect, test } from 'vitest'
import { conflictDiff } from './conflict-diff'

describe('conflictDiff', () => {
  test('lines only on disk are removals, lines only in the editor additions', () => {
    const diff = conflictDiff('app.js', 'a\nagent\nc\n', 'a\nmine\nc\n')
    expect(diff).toMatchObject({ file: 'app.js', status: 'modified', additions: 1, deletions: 1 })
    expect(diff.patch).toBe('@@ -1,3 +1,3 @@\n a\n-agent\n+mine\n c')
  })

  test('identical texts have no hunks', () => {
    expect(conflictDiff('x', 'same\n', 'same\n')).toMatchObject({ additions: 0, deletions: 0, patch: '' })
  })
})
