import { describe, expect, it } from 'vitest'
import { hiddenCount, hiddenText, partsBefore, visibleMessages } from './revert-cut'
import { makeConversation } from './test-support'

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
