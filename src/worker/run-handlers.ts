import { assertWritable } from '../core/read-only'
import type { StoreContext } from '../store/context'
import { InputError } from '../core/errors'
import { editQueuedPrompt, queuedPrompts, removeQueuedPrompt } from '../store/prompt'
import { getSession } from '../store/session-store'
import { readTodos } from '../store/todo-store'
import type { WorkerHandlers } from '../core/protocol'
import type { SessionRunner } from './session-runner'
import { acceptPrompt, promptMentionSources } from '../session/prompt'
import type { WorkspaceSource } from '../session/turn-services'

type RunHandlers = Pick<
  WorkerHandlers,
  'prompt' | 'cancel' | 'resume' | 'answerPrompt' | 'openSession' | 'flush' | 'todos' | 'queuedPrompts' | 'editQueuedPrompt' | 'removeQueuedPrompt'
>

/** The agent loop's operations. The loop itself runs in the background: a prompt resolves once it is stored. */
export function runHandlers(
  ready: () => StoreContext,
  runner: () => SessionRunner,
  workspaces?: Pick<WorkspaceSource, 'get'>,
): RunHandlers {
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
    openSession: async (sessionID) => ({ repaired: await runner().repairIfIdle(sessionID) }),
    flush: () => runner().flush(),
    todos: (sessionID) => readTodos(ready(), sessionID),
    queuedPrompts: (sessionID) => queuedPrompts(ready(), sessionID),
    editQueuedPrompt: (inputID, parts) => editQueuedPrompt(ready(), inputID, parts),
    removeQueuedPrompt: (inputID) => removeQueuedPrompt(ready(), inputID),
  }
}
