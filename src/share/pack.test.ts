import { describe, expect, test } from 'vitest'
import { packTranscript, unpackTranscript } from './pack'
import { realisticTranscript } from './testing/realistic-session'
import { richTranscript } from './testing/rich-transcript'
import { withoutIds } from './testing/normalize'

describe('the packed link form', () => {
  test('carries no ids and no absolute times but the first', () => {
    const transcript = realisticTranscript()
    const json = JSON.stringify(packTranscript(transcript))
    expect(json).not.toMatch(/(ses|msg|prt|prj)_/)
    const numbers = (json.match(/(?<![\d.])\d{10,}/g) ?? []).map(Number)
    expect(numbers.filter((value) => value === transcript.info.time.created)).toHaveLength(1)
    expect(numbers.filter((value) => value > 1e12)).toHaveLength(1)
  })

  test('unpacks to the same transcript but for ids, references rebuilt', () => {
    const transcript = richTranscript()
    const unpacked = unpackTranscript(JSON.parse(JSON.stringify(packTranscript(transcript))))
    const expected = structuredClone(transcript)
    for (const message of expected.messages) {
      for (const part of message.parts) if (part.type === 'step-start' || part.type === 'step-finish') delete part.snapshot
    }
    expect(withoutIds(unpacked)).toEqual(withoutIds(expected))
    const compaction = unpacked.messages[4]!.parts[0]!
    expect(compaction.type === 'compaction' && compaction.tail_start_id).toBe(unpacked.messages[2]!.info.id)
    expect(unpacked.info.revert?.messageID).toBe(unpacked.messages[2]!.info.id)
  })

  test('walks any shape without throwing, leaving judgement to the schema', () => {
    for (const value of [null, 3, 'text', [], { s: 1, m: 'x' }, { m: [[null, null], 5, [{ role: 'assistant' }, [7]]], c: {} }]) {
      expect(() => unpackTranscript(value)).not.toThrow()
    }
  })
})
