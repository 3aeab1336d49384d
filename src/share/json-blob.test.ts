import { describe, expect, it } from 'vitest'
import { jsonBlob, writeJson } from './json-blob'

const text = (value: unknown, indent?: number) => {
  const pieces: string[] = []
  writeJson(value, (piece) => pieces.push(piece), indent)
  return pieces.join('')
}

describe('JSON in pieces', () => {
  it('writes exactly what JSON.stringify does, with and without indentation', () => {
    const messages = Array.from({ length: 40 }, (_, at) => ({
      info: { id: `msg_${at}`, time: { created: at }, skipped: undefined, tags: ['a', 'b'], empty: {}, none: [] },
      parts: [{ type: 'text', text: `line one\nline "two" ${at}`, n: at / 3, flag: at % 2 === 0, gone: () => 1 }],
    }))
    const document = { format: 'tabcode-session', version: 1, session: { info: { title: 'ü ✓' }, messages, children: [{ messages: [undefined, null, 1, ...messages.slice(0, 20)] }] } }
    expect(text(document)).toBe(JSON.stringify(document, null, 2))
    expect(text(document, 0)).toBe(JSON.stringify(document))
    for (const leaf of [1, 'x', null, [], {}, [1, 2]]) expect(text(leaf)).toBe(JSON.stringify(leaf, null, 2))
  })

  it('makes a Blob of the same text', async () => {
    const value = { rows: Array.from({ length: 5_000 }, (_, at) => ({ at, text: 'x'.repeat(300) })) }
    const blob = jsonBlob(value)
    expect(blob.type).toBe('application/json')
    expect(await blob.text()).toBe(JSON.stringify(value, null, 2))
  })
})
