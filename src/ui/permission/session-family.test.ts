import { describe, expect, it } from 'vitest'
import { sessionFamily } from './session-family'

describe('sessionFamily', () => {
  it('holds the session and its subagents at any depth, and nothing beside them', () => {
    const children = { ses_a: ['ses_b', 'ses_c'], ses_b: ['ses_d'], ses_x: ['ses_y'] }
    expect([...sessionFamily(children, 'ses_a')].sort()).toEqual(['ses_a', 'ses_b', 'ses_c', 'ses_d'])
    expect([...sessionFamily(children, 'ses_b')].sort()).toEqual(['ses_b', 'ses_d'])
    expect([...sessionFamily({}, 'ses_a')]).toEqual(['ses_a'])
  })
})
