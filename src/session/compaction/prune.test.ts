import { describe, expect, it } from 'vitest'
import type { Part } from '../../core/schema'
import { prunableParts } from './prune'
import { historyBuilder } from '../../testing/test-history'

// 10,000 tokens of output each (the estimate is characters / 4).
const BIG = 'x'.repeat(40_000)

function withTools(h: ReturnType<typeof historyBuilder>, tools: string[], compactedAt?: number) {
  return h.assistant('', {}, (info) => tools.map((tool, index) => h.tool(info, tool, BIG, index === tools.length - 1 ? compactedAt : undefined)))
}

const ids = (parts: Part[]) => parts.map((part) => part.id)
const toolIDs = (entry: { parts: Part[] }) => entry.parts.filter((part) => part.type === 'tool').map((part) => part.id)

describe('pruning old tool outputs', () => {
  it('clears what lies beyond the newest 40,000 tokens of output, older turns only', () => {
    const h = historyBuilder()
    h.user('u1')
    const old = withTools(h, ['bash', 'bash', 'bash', 'read', 'read', 'read', 'read'])
    h.user('u2')
    withTools(h, ['bash', 'bash', 'bash', 'bash', 'bash'])
    h.user('u3')
    withTools(h, ['bash', 'bash'])
    // The last two turns are never looked at; of the older one the newest four outputs (40,000 tokens) stay.
    expect(ids(prunableParts(h.history))).toEqual(toolIDs(old).slice(0, 3).reverse())
  })

  it('clears nothing when it would free no more than 20,000 tokens', () => {
    const h = historyBuilder()
    h.user('u1')
    withTools(h, ['bash', 'bash', 'bash', 'bash', 'bash', 'bash'])
    h.user('u2')
    h.user('u3')
    expect(prunableParts(h.history)).toEqual([])
  })

  it('never clears the latest turn, however large', () => {
    const h = historyBuilder()
    h.user('u1')
    withTools(h, Array.from({ length: 10 }, () => 'bash'))
    expect(prunableParts(h.history)).toEqual([])
  })

  it('stops at an output cleared before: everything older was dealt with then', () => {
    const h = historyBuilder()
    h.user('u0')
    const older = withTools(h, ['bash', 'bash', 'bash'], 5)
    h.user('u1')
    const recent = withTools(h, ['bash', 'bash', 'bash', 'bash', 'bash', 'bash', 'bash'])
    h.user('u2')
    h.user('u3')
    const pruned = ids(prunableParts(h.history))
    expect(pruned).toEqual(toolIDs(recent).slice(0, 3).reverse())
    expect(pruned.some((id) => toolIDs(older).includes(id))).toBe(false)
  })

  it('stops at a summary, unless its compaction was undone', () => {
    const build = (undone?: number) => {
      const h = historyBuilder()
      h.user('u1')
      const before = withTools(h, ['bash', 'bash', 'bash'])
      h.marker(undone ? { undone } : {})
      h.summary('s1')
      h.user('u2')
      const after = withTools(h, ['bash', 'bash', 'bash', 'bash', 'bash', 'bash', 'bash'])
      h.user('u3')
      h.user('u4')
      return { h, before, after }
    }
    const kept = build()
    expect(ids(prunableParts(kept.h.history))).toEqual(toolIDs(kept.after).slice(0, 3).reverse())
    const undone = build(7)
    expect(ids(prunableParts(undone.h.history))).toEqual([...toolIDs(undone.after).slice(0, 3).reverse(), ...toolIDs(undone.before).reverse()])
  })

  it('keeps the output of protected tools and does not count it', () => {
    const h = historyBuilder()
    h.user('u1')
    withTools(h, ['skill', 'skill', 'skill', 'bash', 'bash', 'bash', 'bash'])
    h.user('u2')
    h.user('u3')
    expect(prunableParts(h.history)).toEqual([])
  })
})
