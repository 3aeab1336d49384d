import { describe, expect, it } from 'vitest'
import { hiddenCount, hiddenText, partsBefore, revertTakesTurn, visibleMessages } from './revert-cut'
import type { Part } from '../../core/schema'
import { makeConversation } from './testing/history-harness'

describe('revert cut', () => {
  const { history } = makeConversation({ turns: 3 })
  const messages = history.map((row) => row.info)

  it('shows everything, as the same list, without a revert', () => {
    expect(visibleMessages(messages, undefined)).toBe(messages)
    expect(hiddenCount(messages, undefined)).toBe(0)
  })

  it('hides the revert message and every later one', () => {
    const revert = { messageID: messages[2]!.id }
    expect(visibleMessages(messages, revert)).toEqual(messages.slice(0, 2))
    expect(hiddenCount(messages, revert)).toBe(4)
  })

  it('keeps the message a part revert cuts through, and hides its later parts', () => {
    const row = history[3]!
    const revert = { messageID: row.info.id, partID: row.parts[0]!.id }
    expect(visibleMessages(messages, revert)).toEqual(messages.slice(0, 4))
    expect(hiddenCount(messages, revert)).toBe(2)
    expect(partsBefore(row.parts, revert.partID)).toEqual([])
    expect(partsBefore(row.parts, undefined)).toBe(row.parts)
  })

  it('hides all loaded messages when the point is older than the loaded page', () => {
    expect(visibleMessages(messages.slice(2), { messageID: messages[0]!.id })).toEqual([])
  })

  it('words the count', () => {
    expect(hiddenText(1)).toBe('1 message hidden')
    expect(hiddenText(4)).toBe('4 messages hidden')
  })
})

describe('a revert at a tool call', () => {
  const row = (id: string, type: string) => ({ id, type }) as unknown as Part
  it('takes the whole turn when nothing spoken comes before the call in its reply', () => {
    const parts = [row('prt_1', 'step-start'), row('prt_2', 'tool'), row('prt_3', 'text'), row('prt_4', 'tool')]
    expect(revertTakesTurn(parts, 'prt_2')).toBe(true)
    expect(revertTakesTurn(parts, 'prt_4')).toBe(false)
    expect(revertTakesTurn([row('prt_1', 'reasoning'), row('prt_2', 'tool')], 'prt_2')).toBe(true)
  })
})
