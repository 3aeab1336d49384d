/**
 * What the pacer writes through: xterm's `write`, whose callback runs once the terminal has parsed the data, and the
 * page's animation frames. Injected, so the pacing can be tested without a terminal or a screen.
 */
export interface PacerTarget {
  write(data: string, parsed: () => void): void
  nextFrame(callback: () => void): void
}

export interface PacerLimits {
  /** Characters handed to the terminal per frame, at most. */
  sliceChars: number
  /** Lines handed to the terminal per frame, at most. */
  sliceLines: number
  /** Command output kept waiting, at most, in characters and in lines; older output past either is skipped. */
  keepChars: number
  keepLines: number
}

/**
 * xterm.js parses all that one `write` gives it in one task: a command printing 7 MB held the page for ~3 s, and
 * 100 MB passes xterm's own 50 MB limit, where it throws data away. Most of the cost is per line, not per character
 * (each line fed scrolls the screen, and the viewport and the screen reader's rows follow every scroll: ~20 µs a
 * line on a busy 2-core machine), so a slice is bounded in both. Output the scrollback could not hold anyway (5,000
 * lines, `xterm-view.ts`) is not kept waiting.
 */
export const PACER_LIMITS: PacerLimits = { sliceChars: 16 * 1024, sliceLines: 64, keepChars: 1024 * 1024, keepLines: 5000 }

interface Waiting {
  text: string
  /** Command output, which may be skipped; the prompt, the echo of keys and notes never are. */
  output: boolean
  /** The line feeds in `text`. */
  lines: number
  /** Output skipped just before this entry, said in a note when it is written. */
  skipped: number
}

/**
 * Writes to the terminal in frame-sized slices, one at a time: the next slice waits for the terminal to have parsed
 * the last (its back-pressure) and for the next animation frame, so no task of the page parses more than one slice.
 * Command output past what is kept waiting is skipped from its oldest end (it would have scrolled out of the
 * scrollback anyway), from a line's start where one is near, and the terminal says how much was skipped. Order is
 * kept throughout.
 */
export class OutputPacer {
  private readonly waiting: Waiting[] = []
  /** Command output waiting, in characters and lines. */
  private outputChars = 0
  private outputLines = 0
  private busy = false

  constructor(
    private readonly target: PacerTarget,
    private readonly skippedNote: (characters: number) => string,
    private readonly limits: PacerLimits = PACER_LIMITS,
  ) {}

  /** Text that is always shown: the prompt, the echo of what the user types, the terminal's own words. */
  write(text: string): void {
    this.add({ text, output: false, lines: countLines(text, 0, text.length), skipped: 0 })
  }

  /** A command's output, shown unless too much of it waits. */
  output(text: string): void {
    if (!text) return
    const lines = countLines(text, 0, text.length)
    this.outputChars += text.length
    this.outputLines += lines
    this.add({ text, output: true, lines, skipped: 0 })
    this.trim()
  }

  /** Drops the command output still waiting (the user stopped the command); the rest stays in order. */
  discardOutput(): void {
    for (let index = this.waiting.length - 1; index >= 0; index--) if (this.waiting[index]!.output) this.waiting.splice(index, 1)
    this.outputChars = 0
    this.outputLines = 0
  }

  private add(entry: Waiting): void {
    if (!entry.text) return
    this.waiting.push(entry)
    this.schedule()
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
        continue
      }
      entry.text = entry.text.slice(cut)
      entry.lines -= lines
      entry.skipped = 0
    }
    if (carried === 0) return
    const survivor = this.waiting.findIndex((entry, at) => at >= index && entry.output)
    if (survivor !== -1) this.waiting[survivor]!.skipped += carried
    else this.waiting.push({ text: '', output: true, lines: 0, skipped: carried })
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
    const slice = this.take()
    if (!slice) {
      this.busy = false
      return
    }
    this.target.write(slice, () => {
      if (this.waiting.length === 0) {
        this.busy = false
        return
      }
      this.target.nextFrame(() => this.writeSlice())
    })
  }

  /** One slice from the front, within both budgets, with the notes of skipped output in their places. */
  private take(): string {
    let slice = ''
    let lines = 0
    while (this.waiting.length > 0 && slice.length < this.limits.sliceChars && lines < this.limits.sliceLines) {
      const entry = this.waiting[0]!
      if (entry.skipped > 0) {
        slice += this.skippedNote(entry.skipped)
        entry.skipped = 0
      }
      let end = Math.min(entry.text.length, Math.max(1, this.limits.sliceChars - slice.length))
      const byLines = afterLines(entry.text, this.limits.sliceLines - lines)
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
      if (end === entry.text.length) this.waiting.shift()
      else {
        entry.text = entry.text.slice(end)
        entry.lines -= taken
      }
    }
    return slice
  }
}

function countLines(text: string, start: number, end: number): number {
  let count = 0
  for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count++
  return count
}

/** The index just after the `count`-th line feed of `text`, or -1 when it has fewer. */
function afterLines(text: string, count: number): number {
  let at = -1
  for (let seen = 0; seen < count; seen++) {
    at = text.indexOf('\n', at + 1)
    if (at === -1) return -1
  }
  return at + 1
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
