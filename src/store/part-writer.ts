import type { StoreContext } from './context'
import { putParts, putPartsAnnounced } from './parts'
import type { Message, Part } from '../core/schema'
import type { WriterMetrics } from '../core/dto/metrics'

export type { WriterMetrics }

export const FLUSH_INTERVAL_MS = 50

export interface Timer {
  set(callback: () => void, milliseconds: number): unknown
  clear(handle: unknown): void
}

export const emptyMetrics = (): WriterMetrics => ({ deltas: 0, characters: 0, commits: 0, lastDeltaAt: 0, lastCommitAt: 0 })

const realTimer: Timer = { set: (callback, milliseconds) => setTimeout(callback, milliseconds), clear: (handle) => clearTimeout(handle as number) }

/**
 * The two paths of streaming. Deltas go to the UI at once as live events; storage gets the
 * accumulated parts at most every 50 ms, all dirty parts in one transaction, so write load follows time rather
 * than tokens. Starts and ends of parts are written at once, with an event, because other tabs and a reload must
 * see them.
 *
 * The first write storage refuses (a full disk, say) aborts `refused`: the step stops there rather than stream on
 * into text that cannot be kept, and `showStored` then puts back in the UI what storage holds.
 */
export class PartWriter {
  private readonly dirty = new Map<string, Part>()
  /** The newest state of each part that storage holds. */
  private readonly stored = new Map<string, Part>()
  /** Parts whose newest state a refused write left unstored (besides the dirty ones). */
  private readonly unsaved = new Map<string, Part>()
  private readonly refusal = new AbortController()
  private handle: unknown
  private lastFlushAt: number
  private writing: Promise<void> = Promise.resolve()
  /** Flushes chained behind `writing` whose transactions are not opened yet. */
  private flushesWaiting = 0
  /** Queued states not yet handed to storage, the newest of each part, in the order first queued. */
  private readonly queued = new Map<string, Part>()
  /** States `hold` keeps for the next save, the newest of each part; `releasing` while a release is scheduled. */
  private readonly held = new Map<string, Part>()
  private releasing = false
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

  /** Aborted, with the error as its reason, at the first write storage refused. */
  get refused(): AbortSignal {
    return this.refusal.signal
  }

  private refuse(error: unknown) {
    if (!this.refusal.signal.aborted) this.refusal.abort(error)
  }

  private committed() {
    this.commits++
    this.metrics.commits++
    this.metrics.lastCommitAt = this.now()
  }

  /**
   * Writes a part now and announces it (a new part, a finished one, a tool changing state); with `message`, its
   * message in the same transaction. States held for it (`hold`) and the streamed rows not yet flushed go in the
   * same transaction: a tool's result and the step's finish after it are one write.
   */
  async save(part: Part, message?: Message): Promise<void> {
    this.dirty.delete(part.id)
    // A queued or held state this one replaces before storage got to it is not written (nor announced) on its way.
    this.queued.delete(part.id)
    this.held.delete(part.id)
    // Queued states storage has not been handed yet go in this transaction too, before the held ones, as they came.
    const held = [...this.queued.values(), ...this.held.values()]
    this.queued.clear()
    this.held.clear()
    // Snapshots, as in `flush`: the objects go on changing while the transaction runs.
    const streamed = [...this.dirty.values()].map((row) => structuredClone(row))
    this.dirty.clear()
    try {
      // Writes already handed to storage commit before this one (IndexedDB runs read-write transactions over the same
      // stores in the order they were opened), so this one is opened at once instead of after their commit: a step's
      // finish no longer waits a round of storage for its tool's running state (issue 32). A flush still waiting its
      // turn holds rows older than these and must be opened first; after a refusal, `writing` reports it.
      if (this.flushesWaiting > 0 || this.refused.aborted) await this.writing
      const [rows] = await Promise.all([putPartsAnnounced(this.context, [...held, part], { ...(message ? { message } : {}), quiet: streamed }), this.writing])
      for (const row of rows) this.stored.set(row.id, row)
      for (const row of [...held, ...streamed, part]) this.unsaved.delete(row.id)
    } catch (error) {
      for (const row of held) this.unsaved.set(row.id, row)
      for (const row of streamed) if (!this.dirty.has(row.id)) this.dirty.set(row.id, row)
      this.unsaved.set(part.id, part)
      this.refuse(error)
      throw error
    }
    this.committed()
  }

  /**
   * Keeps a part's state to be written with the next `save` (in its transaction), or on its own a macrotask later
   * if no save comes first: a tool's result, which the step's finish usually follows at once. `flush`, and so the
   * step's end and the next request, wait for it as for a queued state.
   */
  hold(part: Part): void {
    this.dirty.delete(part.id)
    this.queued.delete(part.id)
    this.held.set(part.id, structuredClone(part))
    if (this.releasing) return
    this.releasing = true
    this.timer.set(() => this.release(), 0)
  }

  /** Held states no save took: queued now, behind every write before them. */
  private release(): void {
    this.releasing = false
    const held = [...this.held.values()]
    this.held.clear()
    for (const part of held) this.queue(part)
  }

  /**
   * Writes a part behind every write before it and announces it once stored, without the caller waiting for the
   * commit: for states the step soon replaces (its start, a tool call pending or running), so a step does not wait
   * on storage once per state. States queued while storage is busy go in one transaction, and a part queued twice
   * meanwhile is written (and announced) in its newest state only: a tool call that arrives whole is pending and
   * running at once, one write and one event. The next `save` or `flush` waits for it, so the step's end (and the
   * next request) never comes before it; a refusal aborts `refused` as any write's does.
   */
  queue(part: Part): void {
    this.dirty.delete(part.id)
    this.held.delete(part.id)
    const scheduled = this.queued.size > 0
    // The caller goes on changing the object (a pending tool becomes running): store the state it has now.
    this.queued.set(part.id, structuredClone(part))
    if (scheduled) return
    this.writing = this.writing.catch(() => {}).then(() => this.writeQueued())
    // Reported through `refused` and by the next save or flush; not an unhandled rejection meanwhile.
    this.writing.catch(() => {})
  }

  /** Rows storage confirmed: they are what is stored now, and nothing of them waits to be saved. */
  private wrote(written: readonly Part[]): void {
    for (const row of written) {
      this.stored.set(row.id, row)
      this.unsaved.delete(row.id)
    }
    this.committed()
  }

  private writeQueued(): Promise<void> {
    const rows = [...this.queued.values()]
    this.queued.clear()
    if (rows.length === 0) return Promise.resolve()
    return putPartsAnnounced(this.context, rows).then(
      (written) => this.wrote(written),
      (error: unknown) => {
        for (const row of rows) this.unsaved.set(row.id, row)
        this.refuse(error)
        throw error
      },
    )
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
    // A refused flush is reported through `refused`, which stops the step; nobody waits on this one's promise.
    this.handle ??= this.timer.set(() => this.flush().catch(() => {}), this.interval)
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
    if (this.held.size > 0) this.release()
    if (this.handle !== undefined) this.timer.clear(this.handle)
    this.handle = undefined
    this.lastFlushAt = this.now()
    if (this.dirty.size === 0) return this.writing
    // Snapshot the rows: the objects go on changing while the transaction runs.
    const rows = [...this.dirty.values()].map((part) => structuredClone(part))
    this.dirty.clear()
    this.flushesWaiting++
    const write = () => {
      this.flushesWaiting--
      return putParts(this.context, rows).then(
        (written) => this.wrote(written),
        (error: unknown) => {
          // Nothing of a failed transaction was written (a full disk, an invalid row): the rows go back to be
          // written by the next flush, unless a newer state of the part is already waiting.
          for (const row of rows) if (!this.dirty.has(row.id)) this.dirty.set(row.id, row)
          this.refuse(error)
          throw error
        },
      )
    }
    // One failed flush must not fail every later one.
    this.writing = this.writing.catch(() => {}).then(write)
    return this.writing
  }

  /**
   * After a refused write, once the step has stopped: every part whose newest state could not be written is shown
   * again as storage holds it (or removed, if it never reached storage), so the user sees what a reload would show
   * and nothing that is already lost. The unwritten states are dropped; the step is over.
   */
  showStored(): void {
    for (const part of new Map([...this.unsaved, ...this.queued, ...this.held, ...this.dirty]).values()) {
      const stored = this.stored.get(part.id)
      if (stored) this.context.emit({ type: 'part.updated', part: stored })
      else this.context.emit({ type: 'part.removed', sessionID: part.sessionID, messageID: part.messageID, partID: part.id })
    }
    this.unsaved.clear()
    this.queued.clear()
    this.held.clear()
    this.dirty.clear()
    // The refusal has been reported; a later flush (the loop's, the page being hidden) must not report it again.
    this.writing = this.writing.catch(() => {})
    if (this.handle !== undefined) this.timer.clear(this.handle)
    this.handle = undefined
  }

  /** The newest stored state of every part this writer wrote, as storage holds it. */
  storedParts(): Part[] {
    return [...this.stored.values()]
  }

  get pending(): number {
    return this.dirty.size
  }
}
