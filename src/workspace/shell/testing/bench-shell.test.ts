import { describe, expect, it } from 'vitest'
import { measurePipeline } from './bench-shell'

describe('the shell pipeline benchmark', () => {
  it('runs its ten stages over 10,000 lines and counts the distinct names', async () => {
    const { output, exitCode } = await measurePipeline(0)
    // Rows with a third column over 10 span all 97 names; `head -n 50` keeps 50 of them.
    expect({ output, exitCode }).toEqual({ output: '50\n', exitCode: 0 })
  }, 30_000)
})
