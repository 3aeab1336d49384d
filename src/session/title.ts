import { streamText } from 'ai'
import { log } from '../core/log'
import type { MessageWithParts } from '../store/message-store'
import type { SessionInfo } from '../core/schema'
import { cleanTitle, firstRealUserMessage, TITLE_PROMPT } from '../core/title-generation'
import { isDefaultTitle } from '../core/title'
import type { StoreContext } from '../store/context'
import { getSession, setTitle } from '../store/session-store'
import type { ModelSource, ResolvedModel } from './model-source'
import { toModelMessages } from './model-messages'

/** Names a root session from its first real prompt, in the background, with the small model when there is one. */
export async function generateTitle(
  dependencies: { store: StoreContext; models: ModelSource },
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
  const result = streamText({
    model: resolved.model,
    system: TITLE_PROMPT,
    messages: [
      { role: 'user', content: 'Generate a title for this conversation:\n' },
      ...toModelMessages([first], { providerID: resolved.providerID, modelID: resolved.modelID }),
    ],
    maxRetries: 2,
    maxOutputTokens: 200,
    // The SDK's default logs the raw error, whose body may echo the key.
    onError: ({ error }) => log.warn('tabcode: could not name the session', error),
  })
  const title = cleanTitle(await result.text)
  if (!title) return
  const current = await getSession(dependencies.store, session.id)
  // The user may have renamed it meanwhile; their title wins.
  if (isDefaultTitle(current.title)) await setTitle(dependencies.store, session.id, title)
}
