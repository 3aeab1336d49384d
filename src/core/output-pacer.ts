/**
 * Where a pacer's text goes, one slice at a time. `write` calls `done` once the slice is taken (xterm has parsed it;
 * the page has shown it), and `next` says when the next slice may go (the next animation frame, or at once).
 * Injected, so the pacing is tested without a terminal, a page or a worker.
 */
export interface PacerTarget {
  write(data: string, done: () => void): void
  next(callback: () => void): void
}

export interface PacerLimits {
  /** Characters in one slice, at most. */
  sliceChars: number
  /** Line feeds in one slice, at most. */
  sliceLines: number
  /** Command output kept waiting, at most, in characters and in lines; older output past either is skipped. */
  keepChars: number
  keepLines: number
}

interface Waiting {
  text: string
  /** Command output, which may be skipped; the prompt, the echo of keys and notes never are. */
  output: boolean
  /** The line feeds in `text`, counted when first needed: output that is skipped whole is never counted. */
  lines: number | undefined
  /** Output skipped just before this entry, said in a note when it is written. */
  skipped: number
  /** Called once all of `text` is taken, or skipped, or dropped. */
  taken: (() => void) | undefined
}

/** A place in what waits: an entry's index and an offset into its text. */
interface Place {
  index: number
  offset: number
}

/**
 * Hands text on in bounded slices, one at a time: the next slice waits for the last to be taken (back-pressure) and
 * for `next`. Command output past what is kept waiting is skipped from its oldest end (from a line's start where one
 * is near), and a note says how much; the prompt, echoed keys and notes are never skipped. Order is kept throughout.
 *
 * Taking output in costs the same whatever it holds (its length is added up; older entries past the character bound
 * go whole): the worker that runs a command must keep up with a program printing as fast as it can, or a Stop waits
 * behind the program's output. Lines are counted only when a slice is made, and only in what is kept.
 *
 * The worker uses one per terminal command, so that only the newest output crosses to the page, at the pace the page
 * takes it (`worker/terminal-handlers.ts`); the page uses one per terminal, to write to xterm a frame-sized slice at a
 * time (`ui/workspace/terminal/xterm-view.ts`).
 */
export class OutputPacer {
  private readonly waiting: Waiting[] = []
  /** Command output waiting, in characters. */
  private outputChars = 0
  private busy = false
  private idle: (() => void)[] = []

  constructor(
    private readonly target: PacerTarget,
    private readonly limits: PacerLimits,
    private readonly skippedNote: (characters: number) => string = () => '',
  ) {}

  /** Text that is always passed on: the prompt, the echo of what the user types, the terminal's own words. */
  write(text: string): void {
    if (!text) return
    this.waiting.push({ text, output: false, lines: undefined, skipped: 0, taken: undefined })
    this.schedule()
  }

  /** A command's output, passed on unless too much of it waits. Resolves once it is taken, skipped or dropped. */
  output(text: string): Promise<void> {
    if (!text) return Promise.resolve()
    const taken = new Promise<void>((resolve) => {
      this.waiting.push({ text, output: true, lines: undefined, skipped: 0, taken: resolve })
    })
    this.outputChars += text.length
    this.dropWhole()
    this.schedule()
    return taken
  }

  /** Drops the command output still waiting (the command was stopped); the rest stays in order. */
  discardOutput(): void {
    for (let index = this.waiting.length - 1; index >= 0; index--) {
      const entry = this.waiting[index]!
      if (!entry.output) continue
      this.waiting.splice(index, 1)
      entry.taken?.()
    }
    this.outputChars = 0
  }

  /** Resolves once everything given so far has been taken. */
  drained(): Promise<void> {
    if (!this.busy && this.waiting.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idle.push(resolve))
  }

  /** The oldest output entries that lie wholly past the character bound go, without being read. */
  private dropWhole(): void {
    const first = this.waiting.findIndex((entry) => entry.output)
    if (first === -1) return
    let end = first
    let chars = this.outputChars
    while (end < this.waiting.length) {
      const entry = this.waiting[end]!
      if (entry.output) {
        if (chars - entry.text.length < this.limits.keepChars) break
        chars -= entry.text.length
      }
      end++
    }
    if (end > first) this.skipBefore({ index: end, offset: 0 })
  }

  /**
   * Skips the oldest output until what waits is within both bounds: the newest `keepLines` lines (counted from the
   * newest entry back, so nothing older is read) and the newest `keepChars` characters, from a line's start near that.
   */
  private trim(): void {
    let lines = 0
    let byLines: Place | undefined
    for (let index = this.waiting.length - 1; index >= 0 && !byLines; index--) {
      const entry = this.waiting[index]!
      if (!entry.output) continue
      const count = (entry.lines ??= countLines(entry.text, 0, entry.text.length))
      if (lines + count > this.limits.keepLines) byLines = { index, offset: afterLines(entry.text, lines + count - this.limits.keepLines) }
      lines += count
    }
    let byChars: Place | undefined
    let extra = this.outputChars - this.limits.keepChars
    for (let index = 0; index < this.waiting.length && extra > 0; index++) {
      const entry = this.waiting[index]!
      if (!entry.output) continue
      if (extra < entry.text.length) {
        const newline = entry.text.indexOf('\n', extra - 1)
        byChars = { index, offset: newline !== -1 && newline - extra < 4096 ? newline + 1 : extra }
        break
      }
      extra -= entry.text.length
      byChars = { index: index + 1, offset: 0 }
    }
    const cut = [byLines, byChars].reduce<Place | undefined>((later, place) => (!place || (later && !after(place, later)) ? later : place), undefined)
    if (cut) this.skipBefore(cut)
  }

  /**
   * Skips the output before `place`. The first output entry left carries how much was skipped before it (with the
   * counts of the entries it replaces), for its note; when none is left, a note stands alone.
   */
  private skipBefore(place: Place): void {
    let carried = 0
    let index = 0
    let end = place.index
    while (index < end) {
      const entry = this.waiting[index]!
      if (!entry.output) {
        index++
        continue
      }
      carried += entry.skipped + entry.text.length
      this.outputChars -= entry.text.length
      this.waiting.splice(index, 1)
      entry.taken?.()
      end--
    }
    const cut = this.waiting[end]
    if (cut?.output && place.offset > 0) {
      const offset = Math.min(place.offset, cut.text.length)
      if (cut.lines !== undefined) cut.lines -= countLines(cut.text, 0, offset)
      carried += cut.skipped + offset
      cut.skipped = 0
      this.outputChars -= offset
      cut.text = cut.text.slice(offset)
      if (!cut.text) {
        this.waiting.splice(end, 1)
        cut.taken?.()
      }
    }
    if (carried === 0) return
    const survivor = this.waiting.findIndex((entry, at) => at >= index && entry.output)
    if (survivor !== -1) this.waiting[survivor]!.skipped += carried
    else this.waiting.push({ text: '', output: true, lines: 0, skipped: carried, taken: undefined })
  }

  /** The first slice goes at once (a typed key shows without waiting for a frame); the rest wait their turn. */
  private schedule(): void {
    if (this.busy) return
    this.busy = true
    this.writeSlice()
  }

  private writeSlice(): void {
    this.trim()
    const { slice, finished } = this.take()
    if (!slice) {
      this.busy = false
      for (const done of finished) done()
      for (const resolve of this.idle.splice(0)) resolve()
      return
    }
    this.target.write(slice, () => {
      for (const done of finished) done()
      if (this.waiting.length === 0) {
        this.busy = false
        for (const resolve of this.idle.splice(0)) resolve()
        return
      }
      this.target.next(() => this.writeSlice())
    })
  }

  /** One slice from the front, within both budgets, with the notes of skipped output in their places. */
  private take(): { slice: string; finished: (() => void)[] } {
    let slice = ''
    let lines = 0
    const finished: (() => void)[] = []
    while (this.waiting.length > 0 && slice.length < this.limits.sliceChars && lines < this.limits.sliceLines) {
      const entry = this.waiting[0]!
      if (entry.skipped > 0) {
        slice += this.skippedNote(entry.skipped)
        entry.skipped = 0
      }
      let end = Math.min(entry.text.length, Math.max(1, this.limits.sliceChars - slice.length))
      const byLines = afterLines(entry.text, this.limits.sliceLines - lines, end)
      if (byLines !== -1 && byLines < end) end = byLines
      // A surrogate pair stays in one slice.
      if (end < entry.text.length && isHighSurrogate(entry.text.charCodeAt(end - 1))) end++
      const taken = countLines(entry.text, 0, end)
      slice += entry.text.slice(0, end)
      lines += taken
      if (entry.output) this.outputChars -= end
      if (end === entry.text.length) {
        this.waiting.shift()
        if (entry.taken) finished.push(entry.taken)
      } else {
        entry.text = entry.text.slice(end)
        if (entry.lines !== undefined) entry.lines -= taken
      }
    }
    return { slice, finished }
  }
}

const after = (a: Place, b: Place) => a.index > b.index || (a.index === b.index && a.offset > b.offset)

// Both walk the characters: 100 MB of short lines is 50 million line feeds, and a call of `indexOf` per line feed
// cost seconds where this costs a fraction of one.
function countLines(text: string, start: number, end: number): number {
  let count = 0
  for (let at = start; at < end; at++) if (text.charCodeAt(at) === 10) count++
  return count
}

/** The index just after the `count`-th line feed of `text` (looking at most `within` characters in), or -1. */
function afterLines(text: string, count: number, within = text.length): number {
  if (count <= 0) return 0
  let left = count
  const end = Math.min(within, text.length)
  for (let at = 0; at < end; at++) if (text.charCodeAt(at) === 10 && --left === 0) return at + 1
  return -1
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff

/**
 * What the terminal shows where output was skipped. CAN first ends any control sequence the skipped output left
 * open, so the note and what follows print as they are.
 */
export function skippedOutputNote(characters: number): string {
  return `\x18\x1b[0m\r\n\x1b[2m… ${characters.toLocaleString('en-US')} characters of output skipped …\x1b[0m\r\n`
}
