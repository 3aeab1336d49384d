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
  /** The line feeds in `text`. */
  lines: number
  /** Output skipped just before this entry, said in a note when it is written. */
  skipped: number
  /** Called once all of `text` is taken, or skipped, or dropped. */
  taken: (() => void) | undefined
}

/**
 * Hands text on in bounded slices, one at a time: the next slice waits for the last to be taken (back-pressure) and
 * for `next`. Command output past what is kept waiting is skipped from its oldest end (from a line's start where one
 * is near), and a note says how much; the prompt, echoed keys and notes are never skipped. Order is kept throughout.
 *
 * The worker uses one per terminal command, so that only the newest output crosses to the page, at the pace the page
 * takes it (`worker/terminal-handlers.ts`); the page uses one per terminal, to write to xterm a frame-sized slice at a
 * time (`ui/workspace/terminal/xterm-view.ts`).
 */
export class OutputPacer {
  private readonly waiting: Waiting[] = []
  /** Command output waiting, in characters and lines. */
  private outputChars = 0
  private outputLines = 0
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
    this.waiting.push({ text, output: false, lines: countLines(text, 0, text.length), skipped: 0, taken: undefined })
    this.schedule()
  }

  /** A command's output, passed on unless too much of it waits. Resolves once it is taken, skipped or dropped. */
  output(text: string): Promise<void> {
    if (!text) return Promise.resolve()
    const lines = countLines(text, 0, text.length)
    this.outputChars += text.length
    this.outputLines += lines
    const taken = new Promise<void>((resolve) => {
      this.waiting.push({ text, output: true, lines, skipped: 0, taken: resolve })
    })
    this.trim()
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
    this.outputLines = 0
  }

  /** Resolves once everything given so far has been taken. */
  drained(): Promise<void> {
    if (!this.busy && this.waiting.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idle.push(resolve))
  }

  private over(): boolean {
    return this.outputChars > this.limits.keepChars || this.outputLines > this.limits.keepLines
  }

  /**
   * Skips the oldest output until what waits is within the limits. The first output entry left carries how much
   * was skipped before it (with the counts of the entries it replaces), for its note; when none is left, a note
   * stands alone.
   */
  private trim(): void {
    let carried = 0
    let index = 0
    while (index < this.waiting.length && this.over()) {
      const entry = this.waiting[index]!
      if (!entry.output) {
        index++
        continue
      }
      const cut = this.cutFor(entry)
      const lines = cut === entry.text.length ? entry.lines : countLines(entry.text, 0, cut)
      carried += entry.skipped + cut
      this.outputChars -= cut
      this.outputLines -= lines
      if (cut === entry.text.length) {
        this.waiting.splice(index, 1)
        entry.taken?.()
        continue
      }
      entry.text = entry.text.slice(cut)
      entry.lines -= lines
      entry.skipped = 0
    }
    if (carried === 0) return
    const survivor = this.waiting.findIndex((entry, at) => at >= index && entry.output)
    if (survivor !== -1) this.waiting[survivor]!.skipped += carried
    else this.waiting.push({ text: '', output: true, lines: 0, skipped: carried, taken: undefined })
  }

  /** How much of the oldest output entry to skip: the whole of it, or up to a line's start that brings both counts within bounds. */
  private cutFor(entry: Waiting): number {
    const extraLines = this.outputLines - this.limits.keepLines
    const extraChars = this.outputChars - this.limits.keepChars
    if (extraLines >= entry.lines || extraChars >= entry.text.length) return entry.text.length
    let cut = extraLines > 0 ? afterLines(entry.text, extraLines) : 0
    if (extraChars > cut) {
      const newline = entry.text.indexOf('\n', extraChars - 1)
      cut = newline !== -1 && newline - extraChars < 4096 ? newline + 1 : extraChars
    }
    return Math.min(cut, entry.text.length)
  }

  /** The first slice goes at once (a typed key shows without waiting for a frame); the rest wait their turn. */
  private schedule(): void {
    if (this.busy) return
    this.busy = true
    this.writeSlice()
  }

  private writeSlice(): void {
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
      const taken = end === entry.text.length ? entry.lines : countLines(entry.text, 0, end)
      slice += entry.text.slice(0, end)
      lines += taken
      if (entry.output) {
        this.outputChars -= end
        this.outputLines -= taken
      }
      if (end === entry.text.length) {
        this.waiting.shift()
        if (entry.taken) finished.push(entry.taken)
      } else {
        entry.text = entry.text.slice(end)
        entry.lines -= taken
      }
    }
    return { slice, finished }
  }
}

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
