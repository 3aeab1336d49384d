import { describe, expect, it } from 'vitest'
import { OutputPacer, skippedOutputNote, type PacerLimits } from './output-pacer'

/** A terminal that parses when the test says, and frames that come when the test says. */
function setup(limits: Partial<PacerLimits> = {}) {
  const writes: string[] = []
  let parsed: (() => void) | undefined
  let frame: (() => void) | undefined
  const pacer = new OutputPacer(
    {
      write: (data, done) => {
        expect(parsed, 'a slice is written only once the last was parsed').toBeUndefined()
        writes.push(data)
        parsed = done
      },
      next: (callback) => {
        expect(frame, 'one frame is asked for at a time').toBeUndefined()
        frame = callback
      },
    },
    { sliceChars: 10, sliceLines: 100, keepChars: 40, keepLines: 100, ...limits },
    (characters) => `[${characters} skipped]`,
  )
  /** The terminal parses the last slice, and the next frame comes. */
  const tick = () => {
    const done = parsed
    parsed = undefined
    done?.()
    const next = frame
    frame = undefined
    next?.()
  }
  const drain = () => {
    for (let guard = 0; parsed && guard < 1000; guard++) tick()
    return writes.join('')
  }
  return { pacer, writes, tick, drain }
}

describe('passing output on in bounded slices', () => {
  it('writes at most one slice per frame, each after the last was parsed, in order', () => {
    const t = setup()
    t.pacer.write('$ ')
    t.pacer.output('0123456789abcdefghij')
    t.pacer.write('$ ')
    // A key's echo goes at once; the rest waits for the terminal and a frame.
    expect(t.writes).toEqual(['$ '])
    t.tick()
    expect(t.writes).toEqual(['$ ', '0123456789'])
    t.tick()
    t.tick()
    expect(t.writes).toEqual(['$ ', '0123456789', 'abcdefghij', '$ '])
    t.tick()
    expect(t.writes).toHaveLength(4)
    // Idle again: the next write goes at once.
    t.pacer.write('x')
    expect(t.writes.at(-1)).toBe('x')
  })

  it('skips the oldest output past what it keeps, from a line start, and says how much', () => {
    const lines = (keep: number) => {
      const t = setup({ sliceChars: 1000, keepChars: keep })
      t.pacer.write('$ ')
      for (let line = 1; line <= 9; line++) t.pacer.output(`line ${line}\n`)
      t.pacer.write('$ ')
      return t.drain()
    }
    expect(lines(14)).toBe('$ [49 skipped]line 8\nline 9\n$ ')
    // Keeping 12 characters would start inside "line 8": the whole line goes instead.
    expect(lines(12)).toBe('$ [56 skipped]line 9\n$ ')
  })

  it('bounds slices and what is kept in lines too: each line fed costs the screen a scroll', () => {
    const t = setup({ sliceChars: 1e9, sliceLines: 3, keepChars: 1e9, keepLines: 5 })
    t.pacer.write('$ ')
    t.pacer.output(Array.from({ length: 20 }, (_, line) => `${line}\n`).join(''))
    expect(t.drain()).toBe('$ [35 skipped]15\n16\n17\n18\n19\n')
    expect(t.writes).toEqual(['$ ', '[35 skipped]15\n16\n17\n', '18\n19\n'])
  })

  it('never skips the prompt or the echo of keys, however much output follows', () => {
    const t = setup({ sliceChars: 1000, keepChars: 5 })
    t.pacer.write('$ ')
    t.pacer.output('aaaaaaaaaa')
    t.pacer.write('$ ls')
    t.pacer.output('bbbbbbbbbb')
    expect(t.drain()).toBe('$ $ ls[15 skipped]bbbbb')
  })

  it('keeps the waiting output under its bound however much arrives (100 MB in 64 KB pieces)', () => {
    const t = setup({ sliceChars: 32 * 1024, sliceLines: 1e9, keepChars: 1024 * 1024, keepLines: 1e9 })
    const piece = 'y\n'.repeat(32 * 1024)
    for (let index = 0; index < 1600; index++) t.pacer.output(piece)
    const shown = t.drain()
    // The first slice went at once; of the rest, the newest megabyte.
    expect(shown.length).toBeLessThan(32 * 1024 + 1024 * 1024 + 100)
    expect(shown.slice(32 * 1024)).toMatch(new RegExp(`^\\[${1600 * 64 * 1024 - 32 * 1024 - 1024 * 1024} skipped\\]y\\n`))
    expect(t.writes.every((slice) => slice.length <= 32 * 1024 + 100)).toBe(true)
  })

  it('drops the waiting output when the command is stopped, and keeps what else waits', () => {
    const t = setup()
    t.pacer.write('$ ')
    t.pacer.output('0123456789abcdefghij')
    t.pacer.discardOutput()
    t.pacer.write('^C')
    expect(t.drain()).toBe('$ ^C')
  })

  it('keeps a surrogate pair in one slice', () => {
    const t = setup({ sliceChars: 3, keepChars: 100 })
    t.pacer.output('ab😀cd')
    t.drain()
    expect(t.writes.every((slice) => !/[\ud800-\udbff]$/.test(slice))).toBe(true)
    expect(t.writes.join('')).toBe('ab😀cd')
  })

  it('says when each piece of output is taken, and when everything is', async () => {
    const t = setup({ sliceChars: 4 })
    const settled: string[] = []
    void t.pacer.output('abcdef').then(() => settled.push('abcdef'))
    void t.pacer.output('gh').then(() => settled.push('gh'))
    const drained = t.pacer.drained().then(() => settled.push('drained'))
    t.tick()
    await Promise.resolve()
    // "abcdef" is only part written until the second slice is parsed.
    expect(settled).toEqual([])
    t.tick()
    t.tick()
    await drained
    expect(settled).toEqual(['abcdef', 'gh', 'drained'])
  })

  it('settles output it skips or drops at once, so whoever sent it can send more', async () => {
    const t = setup({ sliceChars: 2, keepChars: 4 })
    const settled: string[] = []
    t.pacer.write('$ ')
    void t.pacer.output('1111').then(() => settled.push('1111'))
    void t.pacer.output('2222').then(() => settled.push('2222'))
    void t.pacer.output('3333').then(() => settled.push('3333'))
    await Promise.resolve()
    expect(settled).toEqual(['1111', '2222'])
    t.pacer.discardOutput()
    await Promise.resolve()
    expect(settled).toEqual(['1111', '2222', '3333'])
  })

  it('says how much was skipped in words, after ending any sequence left open', () => {
    expect(skippedOutputNote(98_304_000)).toBe('\x18\x1b[0m\r\n\x1b[2m… 98,304,000 characters of output skipped …\x1b[0m\r\n')
  })
})
