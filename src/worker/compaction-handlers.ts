import { assertWritable } from '../core/read-only'
import { getSettings, loadProviders } from '../store/provider-store'
import type { ProviderType } from '../core/provider/schema'
import { agentFor } from '../store/agent-settings'
import { compactionOf, isCompletedSummary, isRealUser, isSummary } from '../core/compaction/markers'
import { buildRequest } from '../session/compaction/request'
import { createCompactionMarker } from '../store/compaction-store'
import { estimateTokens } from '../core/compaction/tail'
import type { StoreContext } from '../store/context'
import { InputError, NotFoundError } from '../core/errors'
import { modelForPrompt } from '../core/settings'
import { lastOf } from '../core/history'
import { findMessage, loadHistory, updatePart, type MessageWithParts } from '../store/message-store'
import { loadRecentHistory } from '../store/recent-history'
import { partsOf } from '../store/parts'
import type { AssistantMessage, UserMessage } from '../core/schema'
import { finishRevert, visibleHistory as withRevert } from '../session/revert'
import { getSession } from '../store/session-store'
import { projectInstructions } from '../session/turn-tools'
import type { WorkspaceSource } from '../session/turn-services'
import type { Handlers } from '../core/protocol/base'
import type { CompactionApi, ModelView } from '../core/protocol/history'
import type { SessionRunner } from './session-runner'
import { loadAttachments } from '../session/prompt-attachments'

/** The newest prompt the user wrote (markers are tabcode's): its agent and model are the session's current ones. */
function lastRealUser(history: MessageWithParts[]): UserMessage | undefined {
  for (let index = history.length - 1; index >= 0; index--) {
    const entry = history[index]!
    if (isRealUser(entry)) return entry.info as UserMessage
  }
  return undefined
}

/** The summary is the newest message and still stands: a new compaction would only summarise it again. */
function alreadyCompacted(history: MessageWithParts[]): boolean {
  const last = history.at(-1)
  if (!last || !isSummary(last) || !isCompletedSummary(last)) return false
  const marker = history.find((entry) => entry.info.id === (last.info as AssistantMessage).parentID)
  return !(marker && compactionOf(marker)?.undone)
}

/**
 * The SDK provider name a model of each type carries (`createLanguageModel`), without building the model: the view
 * converts tool media as the request to that provider will.
 */
const SDK_PROVIDER: Record<ProviderType, string> = {
  openai: 'openai.responses',
  anthropic: 'anthropic.messages',
  google: 'google.generative-ai',
  'openai-compatible': 'openai-compatible.chat',
}

/** Manual compaction, its undo, and the view of exactly what the next request sends. */
export function compactionHandlers(
  ready: () => StoreContext,
  runner: () => SessionRunner,
  workspaces?: () => WorkspaceSource,
): Handlers<CompactionApi> {
  return {
    compactSession: async ({ sessionID, model }) => {
      const context = ready()
      const session = await getSession(context, sessionID)
      assertWritable(session, 'change it')
      // Under the session's lock (BusyError if any tab runs it), so no turn starts between the checks and the marker.
      await runner().whileIdle(sessionID, 'compact it', async () => {
        // A pending revert becomes final first, as before a prompt: the summary must not cover hidden messages.
        await finishRevert(context, sessionID)
        const history = (await loadRecentHistory(context, sessionID)).history
        const user = lastRealUser(history)
        if (!user) throw new InputError('sessionID', 'There is nothing to compact yet: the session has no messages.')
        if (alreadyCompacted(history)) throw new InputError('sessionID', 'The session was just compacted; there is nothing new to summarise.')
        const settings = model || user.model || session.model ? undefined : await getSettings(context)
        const reference = modelForPrompt({ explicit: model, lastUser: user, session, settings })
        if (!reference) throw new InputError('model', 'No model is chosen yet. Add a provider in Settings and pick a default model.')
        await createCompactionMarker(context, { sessionID, agent: user.agent, model: reference, auto: false })
      })
      void runner().start(sessionID)
    },

    undoCompaction: async ({ sessionID, messageID }) => {
      const context = ready()
      assertWritable(await getSession(context, sessionID), 'change it')
      await runner().whileIdle(sessionID, 'undo a compaction', async () => {
        let message = await findMessage(context, messageID)
        if (!message || message.sessionID !== sessionID) throw new NotFoundError('message', messageID)
        // The summary stands for its compaction too: undoing it undoes its marker.
        if (message.role === 'assistant' && message.summary) message = await findMessage(context, message.parentID)
        const parts = message ? await partsOf(context, message.id) : []
        const compaction = parts.find((part) => part.type === 'compaction')
        if (!compaction || compaction.type !== 'compaction') {
          throw new InputError('messageID', 'This message is not a compaction; only a compaction can be undone.')
        }
        if (compaction.undone !== undefined) return
        await updatePart(context, { ...compaction, undone: context.now() })
      })
    },

    modelView: async (sessionID) => {
      const context = ready()
      const session = await getSession(context, sessionID)
      // Messages a pending revert hides are removed by the next prompt: the next request never carries them.
      // A pending revert may hide the last compaction itself: then the request starts further back.
      const history = session.revert ? withRevert(await loadHistory(context, sessionID), session.revert) : (await loadRecentHistory(context, sessionID)).history
      const user = lastOf(history, 'user')?.info as UserMessage | undefined
      // No default model here: the view shows the conversation's model; a prompt without one names its own.
      const model = modelForPrompt({ lastUser: user, session })
      const agent = await agentFor(context, user?.agent ?? session.agent ?? 'build')
      const source = workspaces?.()
      const workspace = source ? await source.get(session.projectID) : undefined
      const status = source?.status(session.projectID) ?? { backend: 'local' as const }
      const type = model && (await loadProviders(context.db)).find((provider) => provider.id === model.providerID)?.type
      const { system, messages, summaryMessageID } = buildRequest({
        history,
        model: model ?? { providerID: 'none', modelID: 'none' },
        ...(type ? { provider: SDK_PROVIDER[type] } : {}),
        agent,
        environment: {
          providerID: model?.providerID ?? 'none',
          modelID: model?.modelID ?? 'none',
          directory: workspace?.root ?? session.directory,
          backend: status.backend,
          ...(status.reason ? { backendReason: status.reason } : {}),
          now: context.now(),
        },
        ...(workspace ? { project: await projectInstructions(workspace) } : {}),
        attachments: await loadAttachments(context, history),
      })
      const view: ModelView = {
        ...(model ? { model } : {}),
        system,
        messages,
        // The whole request, system prompt included, by the same estimate compaction uses.
        estimatedTokens: estimateTokens([{ role: 'system', content: system }, ...messages]),
        ...(summaryMessageID ? { summaryMessageID } : {}),
      }
      return view
    },
  }
}
