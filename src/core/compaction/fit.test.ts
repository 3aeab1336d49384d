import { describe, expect, it } from 'vitest'
import type { MessageWithParts } from '../dto/messages'
import { fitToContext } from './fit'
import { historyBuilder } from '../../testing/test-history'

// One "token" per character of text.
const estimate = (entry: MessageWithParts) => entry.parts.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0)

function turns() {
  const h = historyBuilder()
  h.user('u1 ......') //     9
  h.assistant('a1 ....') //  7
  h.user('u2 ....') //       7
  h.assistant('a2 ..') //    5
  h.assistant('a2b .') //    5
  h.user('u3') //            2
  h.assistant('a3') //       2
  return h
}

describe('cutting a history to a summariser\'s context', () => {
  it('keeps everything that fits', () => {
    const { history } = turns()
    expect(fitToContext(history, { budget: 37, estimate })).toEqual({ messages: history, omitted: 0 })
  })

  it('leaves out the oldest messages first, and starts at a prompt', () => {
    const h = turns()
    // 20 would reach back to a1 (the reply to u1); what is kept starts at the next prompt instead.
    const fitted = fitToContext(h.history, { budget: 28, estimate })
    expect(fitted.messages.map(h.textOf)).toEqual(['u2 ....', 'a2 ..', 'a2b .', 'u3', 'a3'])
    expect(fitted.omitted).toBe(2)
  })

  it('starts mid-turn when no prompt is among what fits', () => {
    const h = turns()
    const fitted = fitToContext(h.history.slice(0, 5), { budget: 10, estimate })
    expect(fitted.messages.map(h.textOf)).toEqual(['a2 ..', 'a2b .'])
    expect(fitted.omitted).toBe(3)
  })

  it('keeps the newest message alone when even it does not fit', () => {
    const h = turns()
    const fitted = fitToContext(h.history, { budget: 1, estimate })
    expect(fitted.messages.map(h.textOf)).toEqual(['a3'])
    expect(fitted.omitted).toBe(6)
  })
})
