import { describe, expect, test } from 'vitest'
import { richTranscript } from './testing/rich-transcript'
import { transcriptProblem } from './transcript'

describe('transcriptProblem', () => {
  test('an exported session, children included, has none', () => {
    expect(transcriptProblem(richTranscript())).toBeUndefined()
  })

  test('names a message id or a part id that appears twice, in a child session too', () => {
    const messages = richTranscript()
    messages.messages[1]!.info.id = messages.messages[0]!.info.id
    expect(transcriptProblem(messages)).toBe(`message ${messages.messages[0]!.info.id} appears twice`)

    const parts = richTranscript()
    const child = parts.children![0]!
    child.messages[0]!.parts[0]!.id = parts.messages[0]!.parts[0]!.id
    expect(transcriptProblem(parts)).toBe(`part ${parts.messages[0]!.parts[0]!.id} appears twice`)
  })

  test('names a reply that answers no prompt of its session', () => {
    const transcript = richTranscript()
    const [, reply] = transcript.messages.splice(0, 2)
    transcript.messages.unshift(reply!)
    expect(transcriptProblem(transcript)).toMatch(new RegExp(`^reply ${reply!.info.id} answers no prompt`))
  })
})
