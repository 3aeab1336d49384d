import { assertWritable } from '../core/read-only'
import type { StoreContext } from '../store/context'
import { InputError } from '../core/errors'
import { editQueuedPrompt, removeQueuedPrompt } from '../store/prompt'
import { getSession } from '../store/session-store'
import type { Handlers } from '../core/protocol/base'
import type { RunApi } from '../core/protocol/run'
import type { SessionRunner } from './session-runner'
import { acceptPrompt, promptMentionSources } from '../session/prompt'
import type { WorkspaceSource } from '../session/turn-services'

/** The agent loop's operations. The loop itself runs in the background: a prompt resolves once it is stored. */
export function runHandlers(
  ready: () => StoreContext,
  runner: () => SessionRunner,
  workspaces?: Pick<WorkspaceSource, 'get'>,
): Handlers<RunApi> {
  return {
    // The intake is the session's (session/prompt.ts); the handler gives it the store, the workspaces and the runner.
    prompt: async (input) => {
      const store = ready()
      return acceptPrompt(
        {
          store,
          start: (sessionID) => void runner().start(sessionID),
          ...(workspaces ? { mentionSources: (sessionID: string) => promptMentionSources(store, workspaces, sessionID) } : {}),
        },
        input,
      )
    },
    cancel: (sessionID) => runner().cancel(sessionID),
    resume: async (sessionID) => {
      const session = await getSession(ready(), sessionID)
      assertWritable(session, 'go on with it')
      // Retrying would answer from a history whose end is hidden; the user goes on with a prompt or an unrevert.
      if (session.revert) {
        throw new InputError('revert', 'This session has a pending revert: send a new prompt to continue from there, or undo the revert first.')
      }
      void runner().start(sessionID, { resume: true })
    },
    answerPrompt: async ({ sessionID, messageID }) => {
      const session = await getSession(ready(), sessionID)
      assertWritable(session, 'go on with it')
      void runner().answer(sessionID, messageID)
    },
    flush: () => runner().flush(),
    editQueuedPrompt: (inputID, parts) => editQueuedPrompt(ready(), inputID, parts),
    removeQueuedPrompt: (inputID) => removeQueuedPrompt(ready(), inputID),
  }
}
