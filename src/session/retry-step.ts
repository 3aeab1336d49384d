import { resolveLanguageModel } from 'ai/internal'
import type { ModelMessage } from 'ai'
import { maxOutputTokens } from '../core/compaction/overflow'
import type { SessionStatus } from '../core/event'
import type { AssistantMessage, MessageError, Part } from '../core/schema'
import type { StoreContext } from '../store/context'
import { PartWriter, type WriterMetrics } from '../store/part-writer'
import type { StepTools } from '../tools/tool'
import { streamModelCall } from './model-call'
import type { ResolvedModel } from './model-source'
import { StepProcessor, type StepSnapshots } from './processor'
import { redactError } from './redact-error'
import { retryDelay, retryReason } from './retry'

/** What one model call needs from the loop's owner: storage, the retry budget and clock, and status reports. */
export interface StepDependencies {
  store: StoreContext
  retryLimit(): Promise<number>
  /** Waits, or rejects with an AbortError as soon as the signal fires. */
  sleep(milliseconds: number, signal: AbortSignal): Promise<void>
  setStatus(sessionID: string, status: SessionStatus): void
  /** Called with each step's writer, so the owner can flush it when the page is hidden. */
  onWriter?(writer: PartWriter | undefined): void
  /** Shared counters of every step's writer (for the benchmark). */
  metrics?: WriterMetrics
  /** Whether the browser has a network (`navigator.onLine`); absent: assumed online. */
  online?(): boolean
}

export interface StepInput {
  sessionID: string
  assistant: AssistantMessage
  resolved: ResolvedModel
  system: string
  messages: ModelMessage[]
  signal: AbortSignal
  snapshots: StepSnapshots
  /** The agent's sampling settings; absent ones leave the provider's defaults. */
  temperature?: number
  topP?: number
  /** The step's tools, bound to the processor that reports their progress. */
  tools: (processor: StepProcessor) => StepTools
}

/** The summariser has no tools: a call it makes anyway fails, and the summary is whatever text it wrote. */
const NO_TOOLS: StepTools = {
  definitions: [],
  resolve: (call) => ({ toolName: call.toolName, input: call.input }),
  run: async () => {
    throw new Error('No tools are available while the conversation is summarised.')
  },
}

/** The summary's model call: streamed and recorded like any step, without tools, snapshots or a patch. */
export function runSummaryStep(
  dependencies: StepDependencies,
  input: { sessionID: string; assistant: AssistantMessage; resolved: ResolvedModel; system: string; messages: ModelMessage[]; signal: AbortSignal },
): Promise<{ error?: MessageError }> {
  return runStepWithRetry(dependencies, { ...input, snapshots: {}, tools: () => NO_TOOLS })
}

/** One model call, retried on retryable errors with the provider's delay, up to the configured number of attempts. */
export async function runStepWithRetry(
  dependencies: StepDependencies,
  input: StepInput,
): Promise<{ error?: MessageError; blocked: boolean; after?: string; parts?: Part[] }> {
  const { store } = dependencies
  const limit = await dependencies.retryLimit()
  for (let attempt = 1; ; attempt++) {
    const writer = new PartWriter(store, dependencies.metrics ? { metrics: dependencies.metrics } : {})
    dependencies.onWriter?.(writer)
    const processor = new StepProcessor(store, writer, input.assistant, input.resolved.cost, input.snapshots)
    const events = streamModelCall({
      model: resolveLanguageModel(input.resolved.model),
      system: input.system,
      messages: input.messages,
      tools: processor.tracking(input.tools(processor)),
      maxOutputTokens: maxOutputTokens(input.resolved.limit),
      ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
      ...(input.topP !== undefined ? { topP: input.topP } : {}),
      cacheKey: input.sessionID,
      // A write storage refuses ends the call at once: what streams on could not be kept.
      abortSignal: AbortSignal.any([input.signal, writer.refused]),
    })
    const outcome = await processor.process(events, input.signal)
    await writer.flush()
    dependencies.onWriter?.(undefined)
    const error = outcome.error && redactError(outcome.error, input.resolved.redact)
    const after = processor.after ? { after: processor.after } : {}
    // The reply's parts as stored, when this attempt wrote all of them (a retry's reply also holds the failed ones').
    if (!error) return { blocked: processor.blocked, ...after, ...(attempt === 1 ? { parts: writer.storedParts() } : {}) }
    // Retrying cannot help while the browser itself is offline, and "Failed to fetch" eight times says nothing.
    const offline = offlineError(error, input.resolved, dependencies.online?.() ?? true)
    if (offline) return { error: offline, blocked: processor.blocked, ...after }
    const reason = retryReason(error)
    if (!reason || input.signal.aborted) return { error, blocked: processor.blocked, ...after }
    if (attempt > limit) {
      const gaveUp = {
        name: error.name === 'APIError' ? 'APIError' : 'UnknownError',
        data: {
          ...(error.name === 'APIError' ? error.data : {}),
          message: `Gave up after ${limit} ${limit === 1 ? 'retry' : 'retries'}: ${error.data.message}`,
          isRetryable: false,
        },
      } as MessageError
      return { error: gaveUp, blocked: false }
    }
    const delay = retryDelay(attempt, error, store.now())
    dependencies.setStatus(input.sessionID, { type: 'retry', attempt, message: reason, next: store.now() + delay })
    try {
      await dependencies.sleep(delay, input.signal)
    } catch {
      return { error: { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } }, blocked: false }
    }
    dependencies.setStatus(input.sessionID, { type: 'busy' })
  }
}

/**
 * A network failure while the browser reports no network, said as that, for a hosted provider: its request cannot
 * have left the machine. A local model server is still reachable offline, so its failure is left as it is (the
 * server may just be down) and retried as usual.
 */
export function offlineError(error: MessageError, resolved: Pick<ResolvedModel, 'providerID' | 'local'>, online: boolean): MessageError | undefined {
  if (online || resolved.local || error.name !== 'APIError' || error.data.statusCode !== undefined) return undefined
  if (!/^Network error:/.test(error.data.message)) return undefined
  return {
    name: 'APIError',
    data: {
      message:
        "The browser is offline, so the model's provider cannot be reached. Send again once you are back online; " +
        'a model served on this machine (Ollama, LM Studio, llama.cpp) works offline too.',
      isRetryable: false,
    },
  }
}
