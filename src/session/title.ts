import type { ModelMessage } from 'ai'
import { resolveLanguageModel } from 'ai/internal'
import { log } from '../core/log'
import type { MessageWithParts } from '../store/message-store'
import type { SessionInfo } from '../core/schema'
import { cleanTitle, firstRealUserMessage, TITLE_PROMPT } from '../core/title-generation'
import { isDefaultTitle } from '../core/title'
import type { StoreContext } from '../store/context'
import { getSession, setTitle } from '../store/session-store'
import type { StepTools } from '../tools/tool'
import { streamModelCall } from './model-call'
import type { ModelSource, ResolvedModel } from './model-source'
import { toModelMessages } from './model-messages'
import { redactError } from './redact-error'
import { retryDelay, retryReason, toMessageError } from './retry'

/** opencode's: a title call is tried again twice on an error worth retrying. */
const TITLE_RETRIES = 2
/** A wait the provider asks for beyond this is not worth it for a title: the session keeps its default one. */
const LONGEST_RETRY_WAIT = 30_000
/** A title that has not come in this long is not coming; the call is not left open. */
const TITLE_TIMEOUT = 120_000
const TITLE_MAX_OUTPUT_TOKENS = 200

/** The title model is given no tools; a call it makes anyway is not run. */
const NO_TOOLS: StepTools = {
  definitions: [],
  resolve: (call) => ({ toolName: call.toolName, input: call.input }),
  run: async () => {
    throw new Error('No tools are available while a title is written.')
  },
}

/**
 * Names a root session from its first real prompt, in the background, with the small model when there is one.
 * The call goes through `streamModelCall`, the loop's own path to the provider (the prompt converted the same way,
 * the same retry rules), so the engine needs no second one from the SDK.
 */
export async function generateTitle(
  dependencies: { store: StoreContext; models: ModelSource; sleep(milliseconds: number, signal: AbortSignal): Promise<void> },
  session: SessionInfo,
  /** From the last compaction boundary is enough: a compacted session has more than one prompt, so no title is made. */
  history: MessageWithParts[],
  fallback: ResolvedModel,
): Promise<void> {
  if (session.parentID || !isDefaultTitle(session.title)) return
  const first = firstRealUserMessage(history)
  if (!first) return
  const small = await dependencies.models.smallModel({ providerID: fallback.providerID, modelID: fallback.modelID })
  const resolved = small ? await dependencies.models.resolve(small).catch(() => fallback) : fallback
  const messages: ModelMessage[] = [
    { role: 'user', content: 'Generate a title for this conversation:\n' },
    ...toModelMessages([first], { providerID: resolved.providerID, modelID: resolved.modelID }),
  ]
  const signal = AbortSignal.timeout(TITLE_TIMEOUT)
  let reply: string | undefined
  for (let attempt = 1; reply === undefined; attempt++) {
    try {
      reply = await titleReply(resolved, messages, signal)
    } catch (thrown) {
      // Redacted: a provider's error body may echo the key.
      const error = redactError(toMessageError(thrown, { providerID: resolved.providerID }), resolved.redact)
      const delay = retryDelay(attempt, error, dependencies.store.now())
      if (attempt > TITLE_RETRIES || signal.aborted || !retryReason(error) || delay > LONGEST_RETRY_WAIT) {
        log.warn('tabcode: could not name the session', error)
        return
      }
      await dependencies.sleep(delay, signal)
    }
  }
  const title = cleanTitle(reply)
  if (!title) return
  const current = await getSession(dependencies.store, session.id)
  // The user may have renamed it meanwhile; their title wins.
  if (isDefaultTitle(current.title)) await setTitle(dependencies.store, session.id, title)
}

/** The text of one title call; rejects with what the provider reported, in the stream or before it. */
async function titleReply(resolved: ResolvedModel, messages: ModelMessage[], signal: AbortSignal): Promise<string> {
  let text = ''
  const events = streamModelCall({
    model: resolveLanguageModel(resolved.model),
    system: TITLE_PROMPT,
    messages,
    tools: NO_TOOLS,
    maxOutputTokens: TITLE_MAX_OUTPUT_TOKENS,
    abortSignal: signal,
  })
  for await (const event of events) {
    if (event.type === 'text-delta') text += event.text
    else if (event.type === 'error') throw event.error
    else if (event.type === 'abort') throw signal.reason ?? new DOMException('The title call was stopped', 'AbortError')
  }
  return text
}
