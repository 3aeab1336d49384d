import type { Message, MessageError } from '../../core/schema'
import { QUOTA_REASON } from '../../core/errors'
import { isStorageFullError } from '../kit/format/storage-full'

export interface ErrorHeading {
  /** What happened, in a person's words; the provider's own message is shown under it. */
  heading: string
  /** What to do about it, when there is something better than "retry". */
  advice?: string
  /** Whether running the turn again can help (it cannot when the conversation no longer fits the model). */
  retry: boolean
}

const OVERFLOW_ADVICE = 'Compact the session, branch from a recent message into a new session, or pick a model with a larger context.'

/** The banner's heading for a failed turn, chosen by the error's name (and, for API errors, its status). */
export function errorHeading(error: MessageError): ErrorHeading {
  switch (error.name) {
    case 'APIError':
      // The message itself says what to do (check the plan and billing); the heading must not call it a rate limit.
      if (error.data.metadata?.reason === QUOTA_REASON) return { heading: 'The account has no quota left for this model', retry: true }
      return { heading: apiHeading(error.data.message, error.data.statusCode), retry: true }
    case 'ProviderAuthError':
      return {
        heading: 'The provider refused the key',
        advice: "Check this provider's key in Settings.",
        retry: true,
      }
    case 'ContextOverflowError':
      return { heading: "The conversation is too long for this model's context window", advice: OVERFLOW_ADVICE, retry: false }
    case 'MessageOutputLengthError':
      return { heading: "The reply was cut off at the model's output limit", retry: true }
    case 'ContentFilterError':
      return { heading: "The provider's content filter stopped the reply", retry: true }
    case 'StructuredOutputError':
      return { heading: "The model's answer did not match the requested format", retry: true }
    case 'MessageAbortedError':
      return { heading: 'Stopped', retry: true }
    case 'UnknownError':
      if (isStorageFullError(error)) {
        return { heading: 'Storage is full', advice: 'Delete or export old sessions, or allow more storage for this site.', retry: true }
      }
      return { heading: 'The turn failed', retry: true }
  }
}

function apiHeading(message: string, status: number | undefined): string {
  const http = status !== undefined ? ` (HTTP ${status})` : ''
  if (status === 429) return `Rate limited${http}`
  if (/overloaded/i.test(message)) return `The provider is overloaded${http}`
  if (status !== undefined && status >= 500) return `The provider failed${http}`
  if (status === 404) return `The provider does not know this model or endpoint${http}`
  if (status === 400 || status === 422) return `The provider rejected the request${http}`
  if (status === undefined && /network/i.test(message)) return "Couldn't reach the provider"
  return `The provider returned an error${http}`
}

/** The text every `MessageAbortedError` the user's own Stop produces carries. */
export const isAbort = (error: MessageError | undefined): boolean => error?.name === 'MessageAbortedError'

/**
 * Which error the session banner shows, if any. The turn's own record wins: when the newest message is an assistant
 * message with an error, that is the error (the live `session.error` event reports the same one). A live error
 * without such a message (the model could not even be resolved, or a retry of a dismissed turn failed before its
 * first step) shows on its own; dismissing clears it. Aborts never make a banner: the
 * user asked for them, and the message shows a quiet "Stopped" instead. Nothing shows while a turn runs.
 */
export function bannerError(input: {
  last: Message | undefined
  live: MessageError | undefined
  running: boolean
  /** The id of the message whose error the user dismissed. */
  dismissed: string | undefined
}): { error: MessageError; messageID?: string } | undefined {
  if (input.running) return undefined
  const last = input.last
  if (last?.role === 'assistant' && last.error && !isAbort(last.error) && last.id !== input.dismissed) {
    return { error: last.error, messageID: last.id }
  }
  if (input.live && !isAbort(input.live)) return { error: input.live }
  return undefined
}
