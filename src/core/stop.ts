import type { MessageError, ModelReference } from './schema'

// Why the step loop stopped, decided by small named conditions in the spirit of the AI SDK's `stepCountIs` and
// `hasToolCall`: each looks at what the loop just learned and names a reason to stop, or says nothing. The loop
// checks them where it learns it and ends through the first that answers; an abort ends it without a reason.

/** Why a run of the loop ended. The reasons with an error are shown to the user unless they are an abort. */
export type StopReason =
  /** The turn is answered and no prompt is queued behind it. */
  | { type: 'inbox-empty' }
  /** A queued prompt names no model and no earlier prompt has one to lend. */
  | { type: 'queued-without-model' }
  /** The newest message of what a step would send is not a prompt: there is nothing to answer. */
  | { type: 'no-prompt' }
  /** The summary step of a compaction failed or was stopped, ending the turn. */
  | { type: 'compaction-stopped'; error: MessageError }
  /** The prompt's model could not be set up (unknown provider, missing key). */
  | { type: 'model-unresolved'; error: MessageError }
  /** The request was refused before sending: it cannot fit the model's context. */
  | { type: 'request-refused'; error: MessageError }
  /** The step ended in an error (after its retries), or was stopped. */
  | { type: 'step-failed'; error: MessageError }
  /** The user rejected a permission: the turn ends here, as in opencode. */
  | { type: 'rejected' }

export type StopCondition<State, Reason extends StopReason = StopReason> = (state: State) => Reason | undefined

/** Stops when the turn is done and nothing was queued behind it. */
export const inboxEmpty: StopCondition<{ queued: unknown }> = ({ queued }) => (queued ? undefined : { type: 'inbox-empty' })

/** Stops when the prompt to promote has no model to run with. */
export const queuedWithoutModel: StopCondition<{ model: ModelReference | undefined }> = ({ model }) =>
  model ? undefined : { type: 'queued-without-model' }

/** Stops when the newest message a step answers is missing or not a user's. */
export const newestIsNotPrompt: StopCondition<{ newest: { info: { role: string } } | undefined }> = ({ newest }) =>
  newest?.info.role === 'user' ? undefined : { type: 'no-prompt' }

/** Stops when the compaction step says so (its summary failed or was aborted). */
export const compactionEndedTurn: StopCondition<{ outcome: 'continue' } | { outcome: 'stop'; error: MessageError }> = (result) =>
  result.outcome === 'stop' ? { type: 'compaction-stopped', error: result.error } : undefined

/** Stops when resolving the prompt's model failed. */
export const modelUnresolved: StopCondition<{ error?: MessageError }> = ({ error }) => (error ? { type: 'model-unresolved', error } : undefined)

/** Stops when the check before sending refused the request. */
export const requestRefused: StopCondition<{ action: string; error?: MessageError }, Extract<StopReason, { type: 'request-refused' }>> = (presend) =>
  presend.action === 'stop' && presend.error ? { type: 'request-refused', error: presend.error } : undefined

/** Stops when the step's final error (its own, or the overflow verdict's) stands. */
export const stepFailed: StopCondition<{ error: MessageError | undefined }> = ({ error }) => (error ? { type: 'step-failed', error } : undefined)

/** Stops when the user rejected a tool's permission during the step. */
export const userRejected: StopCondition<{ blocked: boolean }> = ({ blocked }) => (blocked ? { type: 'rejected' } : undefined)

/** The error a stop shows the user: none for a stop without one, nor for an abort (the user asked for it). */
export function stopError(reason: StopReason): MessageError | undefined {
  if (!('error' in reason) || reason.error.name === 'MessageAbortedError') return undefined
  return reason.error
}
