import { describe, expect, it } from 'vitest'
import { branchPoint } from './branch-point'
import { makeConversation } from './testing/history-harness'

describe('branchPoint', () => {
  const { history } = makeConversation({ turns: 2, steps: 2 })
  const messages = history.map((row) => row.info)
  const [prompt1, answer11, answer12, prompt2, , answer22] = messages

  it('forks just before a prompt, so the fork ends where that prompt would be sent again', () => {
    expect(branchPoint(messages, prompt2!)).toBe(prompt2!.id)
    expect(branchPoint(messages, prompt1!)).toBe(prompt1!.id)
  })

  it('forks after a reply, cutting at the message that follows it', () => {
    expect(branchPoint(messages, answer12!)).toBe(prompt2!.id)
    expect(branchPoint(messages, answer11!)).toBe(answer12!.id)
  })

  it('copies the whole session when the reply is the newest message', () => {
    expect(branchPoint(messages, answer22!)).toBeUndefined()
  })
})
