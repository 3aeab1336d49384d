import type { InboxEntry, ModelReference, PromptPartInput } from '../schema'
import type { CommandSwitch } from '../project-files/errors'

export type DeliveryMode = 'steer' | 'queue'

export interface PromptInput {
  sessionID: string
  parts: PromptPartInput[]
  model?: ModelReference
  agent?: string
  /** `steer` (default): answered by the running loop at its next step. `queue`: runs after the current turn. */
  delivery?: DeliveryMode
  /**
   * The project command the user confirmed running under its own agent or model (what a `CommandConfirmationError`
   * named). In a project the user has not trusted, such a command is refused without it.
   */
  command?: CommandSwitch
}

export type PromptResult = { status: 'stored'; messageID: string } | { status: 'queued'; inputID: string }

/** Prompts and the loop that answers them: sending, stopping, retrying, and the queue of prompts waiting their turn. */
export interface RunApi {
  /** Stores the prompt (or queues it) and makes sure a loop answers it; resolves once stored, not when answered. */
  prompt(input: PromptInput): PromptResult
  /** Stops the session's running turn, in whichever tab runs it. */
  cancel(sessionID: string): void
  /** Runs the loop again after a failed turn (the error banner's retry). */
  resume(sessionID: string): void
  /**
   * Answers a prompt that nothing answered or works on (the session view's "Answer it now"). Nothing runs unless,
   * once the session's lock is held (no runner anywhere), that prompt is still the newest and still has no reply.
   */
  answerPrompt(input: { sessionID: string; messageID: string }): void
  /** Writes streamed text now (the page is being hidden and may be killed). */
  flush(): void
  /** Replaces a queued prompt's parts, keeping its place; a NotFoundError once it has run. */
  editQueuedPrompt(inputID: string, parts: PromptPartInput[]): InboxEntry
  /** Takes a prompt off the queue; false when it was gone already (it ran, or another tab removed it). */
  removeQueuedPrompt(inputID: string): boolean
}
