import type { StoreContext } from './context'
import { updatePart } from './message-store'
import { PartSchema, type Part } from './schema'
import { parseWith } from './errors'

export const FLUSH_INTERVAL_MS = 50

export interface Timer {
  set(callback: () => void, milliseconds: number): unknown
  clear(handle: unknown): void
}

/**
 * Counters the benchmark reads: how many deltas went out and how many commits (and when) reached storage. `deltas`
 * counts the deltas the processor handled, after a network read's runs were merged (stream-coalescing.ts);
 * `characters` is what they carried, which is what tells how many deltas the model sent.
 */
export interface WriterMetrics {
  deltas: number
  characters: number
  commits: number
  lastDeltaAt: number
  lastCommitAt: number
}

export const emptyMetrics = (): WriterMetrics => ({ deltas: 0, characters: 0, commits: 0, lastDeltaAt: 0, lastCommitAt: 0 })

const realTimer: Timer = { set: (callback, milliseconds) => setTimeout(callback, milliseconds), clear: (handle) => clearTimeout(handle as number) }

/**
 * The two paths of streaming (DESIGN decision 3). Deltas go to the UI at once as live events; storage gets the
 * accumulated parts at most every 50 ms, all dirty parts in one transaction, so write load follows time rather
 * than tokens. Starts and ends of parts are written at once, with an event, because other tabs and a reload must
 * see them.
 */
export class PartWriter {
  private readonly dirty = new Map<string, Part>()
  private handle: unknown
  private lastFlushAt: number
  private writing: Promise<void> = Promise.resolve()
  /** Commits so far (the benchmark reads it). */
  commits = 0

  private readonly interval: number
  private readonly timer: Timer
  private readonly metrics: WriterMetrics
  private readonly now: () => number

  constructor(
    private readonly context: StoreContext,
    options: { interval?: number; timer?: Timer; metrics?: WriterMetrics; now?: () => number } = {},
  ) {
    this.interval = options.interval ?? FLUSH_INTERVAL_MS
    this.timer = options.timer ?? realTimer
    this.metrics = options.metrics ?? emptyMetrics()
    this.now = options.now ?? (() => performance.now())
    this.lastFlushAt = this.now()
  }

  private committed() {
    this.commits++
    this.metrics.commits++
    this.metrics.lastCommitAt = this.now()
  }

  /** Writes a part now and announces it (a new part, a finished one, a tool changing state). */
  async save(part: Part): Promise<void> {
    this.dirty.delete(part.id)
    await this.writing
    await updatePart(this.context, part)
    this.committed()
  }

  /** Appends streamed text: the UI sees the delta now, storage on the next flush. */
  delta(part: Extract<Part, { type: 'text' | 'reasoning' }>, delta: string): void {
    this.context.emit({ type: 'part.delta', field: 'text', sessionID: part.sessionID, messageID: part.messageID, partID: part.id, delta })
    this.metrics.deltas++
    this.metrics.characters += delta.length
    this.metrics.lastDeltaAt = this.now()
    this.touch(part)
  }

  /** Marks a part changed without announcing it (progress that the UI gets some other way). */
  touch(part: Part): void {
    this.dirty.set(part.id, part)
    this.handle ??= this.timer.set(() => void this.flush(), this.interval)
  }

  /**
   * True when dirty parts have waited longer than the flush interval. A fast stream can keep the worker busy enough
   * that the flush timer fires late; the processor then flushes inline, so the loss window stays bounded.
   */
  overdue(): boolean {
    return this.dirty.size > 0 && this.now() - this.lastFlushAt >= this.interval * 2
  }

  /** Writes every dirty part in one transaction; also called on abort, end and when the page is hidden. */
  flush(): Promise<void> {
    if (this.handle !== undefined) this.timer.clear(this.handle)
    this.handle = undefined
    this.lastFlushAt = this.now()
    if (this.dirty.size === 0) return this.writing
    // Snapshot the rows: the objects go on changing while the transaction runs.
    const rows = [...this.dirty.values()].map((part) => parseWith(PartSchema, structuredClone(part), 'part'))
    this.dirty.clear()
    const { db } = this.context
    const write = () =>
      db.parts.bulkPut(rows).then(
        () => this.committed(),
        (error: unknown) => {
          // Nothing of a failed transaction was written (a full disk, say): the rows go back to be written by the
          // next flush, unless a newer state of the part is already waiting.
          for (const row of rows) if (!this.dirty.has(row.id)) this.dirty.set(row.id, row)
          throw error
        },
      )
    // One failed flush must not fail every later one.
    this.writing = this.writing.catch(() => {}).then(write)
    return this.writing
  }

  get pending(): number {
    return this.dirty.size
  }
}
