import type { StoreContext } from '../store/context'
import { ABORTED_TOOL_TEXT } from '../core/history'
import { ascending } from '../core/id'
import { createPacer } from '../core/macrotask'
import type { StepEvent } from './model-call'
import type { StepTools } from '../tools/tool'
import { updatePart } from '../store/message-store'
import type { PartWriter } from '../store/part-writer'
import { getPart } from '../store/parts'
import { toMessageError } from './retry'
import type { ToolAttachment } from '../tools/tool'
import type { AssistantMessage, MessageError, Part, PartOf } from '../core/schema'
import { stepUsage, type Prices } from '../core/usage'

export type StepOutcome = 'continue' | 'stop' | 'compact'

/** The workspace snapshot before the step, and how to take the one after it (for step-start and step-finish). */
export interface StepSnapshots {
  before?: string
  /** Given the names of the tools the step called (a step that changed no file need not walk the workspace again). */
  after?: (calledTools: readonly string[]) => Promise<string | undefined>
}

function isError(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name
}

export interface StepResult {
  outcome: StepOutcome
  error?: MessageError
}

const YIELD_INTERVAL_MS = 16
/** How long cleanup waits for running tools to answer their abort (opencode's 250 ms). */
export const TOOL_SETTLE_MS = 250

type ToolPart = PartOf<'tool'>

/**
 * Turns one model call's stream into parts of one assistant message, as opencode's processor does: text and
 * reasoning start/delta/end, tool calls pending → running → completed | error, and a step-finish with usage and
 * cost. Whatever happens, cleanup leaves no part open: text gets an end time, unfinished tools become errors marked
 * interrupted, and the message gets its completion time.
 */
export class StepProcessor {
  private readonly texts = new Map<string, PartOf<'text'>>()
  private readonly reasonings = new Map<string, PartOf<'reasoning'>>()
  private readonly tools = new Map<string, ToolPart>()
  /** Progress reported before the stream told us about the call (the SDK starts tools as soon as it parses them). */
  private readonly early = new Map<string, { title?: string; metadata?: Record<string, unknown> }>()
  /** Each call's own run, so cleanup can keep a result that answers the abort (bash's output so far). */
  private readonly runs = new Map<string, Promise<unknown>>()
  private error: MessageError | undefined

  constructor(
    private readonly store: StoreContext,
    private readonly writer: PartWriter,
    readonly assistant: AssistantMessage,
    private readonly prices: Prices,
    private readonly snapshots: StepSnapshots = {},
  ) {}

  /** True once the user rejected a permission this step asked for: the turn stops after the step (opencode's `blocked`). */
  blocked = false
  /** The snapshot taken when the step finished (also on its step-finish part). */
  after: string | undefined

  private base() {
    return { id: ascending('part', this.store.now()), sessionID: this.assistant.sessionID, messageID: this.assistant.id }
  }

  /** The tool part for a call, created pending if the stream never announced it. */
  private async toolPart(callID: string, toolName: string): Promise<ToolPart> {
    const existing = this.tools.get(callID)
    if (existing) return existing
    const part: ToolPart = { ...this.base(), type: 'tool', callID, tool: toolName, state: { status: 'pending', input: {}, raw: '' } }
    this.tools.set(callID, part)
    this.writer.queue(part)
    return part
  }

  /** Progress a running tool reports (a title, partial output): kept on the part, written on the next flush. */
  progress(callID: string, update: { title?: string; metadata?: Record<string, unknown> }): void {
    const part = this.tools.get(callID)
    if (!part || part.state.status === 'pending') {
      const before = this.early.get(callID)
      this.early.set(callID, {
        ...before,
        ...(update.title !== undefined ? { title: update.title } : {}),
        ...(update.metadata ? { metadata: { ...before?.metadata, ...update.metadata } } : {}),
      })
      return
    }
    if (part.state.status !== 'running') return
    part.state = {
      ...part.state,
      ...(update.title !== undefined ? { title: update.title } : {}),
      ...(update.metadata ? { metadata: { ...part.state.metadata, ...update.metadata } } : {}),
    }
    this.store.emit({ type: 'part.updated', part: structuredClone(part) })
    this.writer.touch(part)
  }

  /** The step's tools, with each run remembered for cleanup. */
  tracking(tools: StepTools): StepTools {
    return {
      ...tools,
      run: (call) => {
        const run = tools.run(call)
        this.runs.set(call.toolCallId, run)
        return run
      },
    }
  }

  async process(stream: AsyncIterable<StepEvent>, abort: AbortSignal): Promise<StepResult> {
    try {
      for await (const event of stream) {
        await this.handle(event)
        if (this.error || this.writer.refused.aborted) break
      }
      if (abort.aborted && !this.error) this.error = aborted()
    } catch (error) {
      this.error = abort.aborted ? aborted() : toMessageError(error, { providerID: this.assistant.providerID })
    } finally {
      // A failed cleanup write is a refused write too (reported just below); on a full disk, recovery closes the
      // parts when the session is next opened.
      await this.cleanup().catch(() => {})
    }
    const refused = this.writer.refused
    if (refused.aborted) {
      // The refusal ends the step, whatever the stream it cut short reported after it (an abort, an error).
      this.error = toMessageError(refused.reason, { providerID: this.assistant.providerID })
      this.writer.showStored()
    }
    if (this.error) return { outcome: 'stop', error: this.error }
    return { outcome: 'continue' }
  }

  private async handle(event: StepEvent): Promise<void> {
    const now = this.store.now()
    switch (event.type) {
      case 'start-step':
        // Queued, as are a tool call's pending and running states: the tool's result, the step's end and the next
        // request all wait for them (`save` and `flush` go behind every queued write), the stream does not.
        this.writer.queue({ ...this.base(), type: 'step-start', ...(this.snapshots.before ? { snapshot: this.snapshots.before } : {}) })
        return
      case 'text-start': {
        const part: PartOf<'text'> = { ...this.base(), type: 'text', text: '', time: { start: now } }
        if (event.providerMetadata) part.metadata = event.providerMetadata
        this.texts.set(event.id, part)
        await this.writer.save(part)
        return
      }
      case 'text-delta': {
        const part = this.texts.get(event.id)
        if (!part || !event.text) return
        part.text += event.text
        this.writer.delta(part, event.text)
        await this.pace()
        return
      }
      case 'text-end': {
        const part = this.texts.get(event.id)
        if (!part) return
        this.texts.delete(event.id)
        part.time = { start: part.time?.start ?? now, end: now }
        if (event.providerMetadata) part.metadata = event.providerMetadata
        await this.writer.save(part)
        return
      }
      case 'reasoning-start': {
        const part: PartOf<'reasoning'> = { ...this.base(), type: 'reasoning', text: '', time: { start: now } }
        if (event.providerMetadata) part.metadata = event.providerMetadata
        this.reasonings.set(event.id, part)
        await this.writer.save(part)
        return
      }
      case 'reasoning-delta': {
        const part = this.reasonings.get(event.id)
        if (!part || !event.text) return
        part.text += event.text
        if (event.providerMetadata) part.metadata = event.providerMetadata
        this.writer.delta(part, event.text)
        await this.pace()
        return
      }
      case 'reasoning-end': {
        const part = this.reasonings.get(event.id)
        if (!part) return
        this.reasonings.delete(event.id)
        part.time = { start: part.time.start, end: now }
        if (event.providerMetadata) part.metadata = event.providerMetadata
        await this.writer.save(part)
        return
      }
      case 'tool-input-start':
        await this.toolPart(event.id, event.toolName)
        return
      case 'tool-call': {
        const part = await this.toolPart(event.toolCallId, event.toolName)
        if (part.state.status !== 'pending') return
        const input = event.input
        const early = this.early.get(event.toolCallId)
        this.early.delete(event.toolCallId)
        part.state = {
          status: 'running',
          input: typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input },
          time: { start: now },
          ...(early?.title !== undefined ? { title: early.title } : {}),
          ...(early?.metadata ? { metadata: early.metadata } : {}),
        }
        // The provider's call metadata (Gemini's thought signature) must come back with the call next time.
        if (event.providerMetadata) part.metadata = { ...part.metadata, ...event.providerMetadata }
        if (event.providerExecuted) part.metadata = { ...part.metadata, providerExecuted: true }
        this.writer.queue(part)
        return
      }
      case 'tool-result':
        await this.complete(event.toolCallId, event.output, now)
        return
      case 'tool-error': {
        const part = await this.toolPart(event.toolCallId, event.toolName)
        if (part.state.status === 'completed' || part.state.status === 'error') return
        const start = part.state.status === 'running' ? part.state.time.start : now
        // Unlike opencode, a rejection fails only this call and not the message (docs/differences-from-opencode.md): the
        // step's other calls run on, and the turn stops after it.
        if (isError(event.error, 'PermissionRejectedError') || isError(event.error, 'QuestionRejectedError')) this.blocked = true
        part.state = {
          status: 'error',
          input: part.state.input,
          error: event.error instanceof Error ? event.error.message : String(event.error),
          time: { start, end: now },
        }
        await this.writer.save(part)
        return
      }
      case 'finish-step': {
        await this.closeReasoning(now)
        const { tokens, cost } = stepUsage(event.usage, this.prices, event.providerMetadata as Record<string, unknown> | undefined)
        this.assistant.finish = event.finishReason
        this.assistant.cost = Number((this.assistant.cost + cost).toFixed(12))
        this.assistant.tokens = tokens
        const called = [...this.tools.values()].map((part) => part.tool)
        const snapshot = await this.snapshots.after?.(called).catch(() => undefined)
        this.after = snapshot
        // The stream's last event (every tool has answered): the step's usage on its finish part and the message,
        // completed, in one transaction, with the tools' results held for it and the streamed rows not yet flushed;
        // the loop writes the message again only when it has more to say (an error).
        this.assistant.time = { ...this.assistant.time, completed: now }
        await this.writer.save({ ...this.base(), type: 'step-finish', reason: event.finishReason, ...(snapshot ? { snapshot } : {}), cost, tokens }, this.assistant)
        return
      }
      case 'error':
        this.error = toMessageError(event.error, { providerID: this.assistant.providerID })
        return
      case 'abort':
        this.error = aborted()
        return
      default:
        return
    }
  }

  private async complete(callID: string, value: unknown, now: number): Promise<void> {
    const part = this.tools.get(callID)
    // A result for a call already closed (errored, or interrupted by cleanup: see keepLateResult) is not applied here.
    if (!part || part.state.status !== 'running') return
    part.state = completedState(part, part.state.input, value, part.state.time.start, now, () => this.base())
    // Held for the step's finish, which follows the last result at once: one write for both (issue 32). The
    // finish, cleanup's flush and so the next request wait for it.
    this.writer.hold(part)
  }

  /**
   * A result that comes after cleanup's wait still replaces the interrupted error it left, as opencode's tool wrapper
   * writes a late result through `completeToolCall`: what the tool returned is not lost, only late.
   */
  private keepLateResult(part: ToolPart): void {
    const run = this.runs.get(part.callID)
    if (!run) return
    run
      .then(async (value) => {
        const stored = await getPart(this.store, part.id)
        if (stored?.type !== 'tool' || stored.state.status !== 'error' || stored.state.metadata?.interrupted !== true) return
        await updatePart(this.store, { ...stored, state: completedState(stored, stored.state.input, value, stored.state.time.start, this.store.now(), () => this.base()) })
      })
      // A failed run stays interrupted; a session deleted meanwhile has nothing to write to.
      .catch(() => {})
  }

  /**
   * Waits up to TOOL_SETTLE_MS for the calls still running to answer (a stopped bash resolves with its output so
   * far) and records what they returned; a call that fails or stays silent is left for cleanup to interrupt.
   */
  private async settleRunning(): Promise<void> {
    const waiting = [...this.tools.values()].flatMap((part) => {
      const run = part.state.status === 'running' ? this.runs.get(part.callID) : undefined
      return run ? [run.then((value) => ({ callID: part.callID, value }), () => undefined)] : []
    })
    if (waiting.length === 0) return
    const settled: { callID: string; value: unknown }[] = []
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      Promise.all(waiting.map((run) => run.then((done) => done && settled.push(done)))),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, TOOL_SETTLE_MS))),
    ])
    clearTimeout(timer)
    for (const { callID, value } of settled) await this.complete(callID, value, this.store.now())
  }

  private readonly yieldNow = createPacer(YIELD_INTERVAL_MS)

  /**
   * A fast stream arrives in long runs of microtasks, during which no timer fires. Every delta may start an overdue
   * flush (without waiting for its commit), and every ~16 ms the processor yields one turn of the event loop, so
   * storage and the UI keep up.
   */
  private async pace(): Promise<void> {
    // A failed commit is not lost: the final flush of the step awaits the same chain and reports it.
    if (this.writer.overdue()) this.writer.flush().catch(() => {})
    await this.yieldNow()
  }

  private async closeReasoning(now: number) {
    for (const part of this.reasonings.values()) {
      part.time = { start: part.time.start, end: now }
      await this.writer.save(part)
    }
    this.reasonings.clear()
  }

  /** opencode's cleanup: nothing stays open, every tool call has a result, the message is completed. */
  private async cleanup(): Promise<void> {
    const now = this.store.now()
    await this.writer.flush()
    for (const part of this.texts.values()) {
      part.time = { start: part.time?.start ?? now, end: now }
      await this.writer.save(part)
    }
    this.texts.clear()
    await this.closeReasoning(now)
    await this.settleRunning()
    for (const part of this.tools.values()) {
      const state = part.state
      if (state.status === 'completed' || state.status === 'error') continue
      const partial = state.status === 'running' ? state.metadata : this.early.get(part.callID)?.metadata
      part.state = {
        status: 'error',
        input: state.input,
        error: ABORTED_TOOL_TEXT,
        metadata: { ...partial, interrupted: true },
        time: { start: state.status === 'running' ? state.time.start : now, end: now },
      }
      await this.writer.save(part)
      if (state.status === 'running') this.keepLateResult(part)
    }
  }

  openParts(): Part[] {
    return [...this.texts.values(), ...this.reasonings.values(), ...this.tools.values()]
  }
}

/** A tool's result as the completed state of its call. */
/** A tool's result as its completed state; media it returned (an image `read` shows) become file parts of the reply. */
function completedState(
  part: ToolPart,
  input: Record<string, unknown>,
  value: unknown,
  start: number,
  end: number,
  base: () => { id: string; sessionID: string; messageID: string },
): ToolPart['state'] {
  const result = value as { title?: string; output?: unknown; metadata?: Record<string, unknown>; attachments?: ToolAttachment[] } | undefined
  const attachments = (result?.attachments ?? []).map((file) => ({ ...base(), type: 'file' as const, ...file }))
  return {
    status: 'completed',
    input,
    output: typeof result?.output === 'string' ? result.output : JSON.stringify(value),
    title: result?.title ?? part.tool,
    metadata: result?.metadata ?? {},
    time: { start, end },
    ...(attachments.length ? { attachments } : {}),
  }
}

function aborted(): MessageError {
  return { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } }
}
