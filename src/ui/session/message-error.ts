import type { MessageError } from '../../core/schema'

export interface ErrorText {
  /** The error's own name, so people can search for it and tests can find it. */
  title: string
  message: string
  detail?: string
}

/** How an assistant message ended badly, in words. Names stay as stored; the message explains. */
export function describeMessageError(error: MessageError): ErrorText {
  switch (error.name) {
    case 'APIError':
      return {
        title: error.data.statusCode ? `APIError ${error.data.statusCode}` : 'APIError',
        message: error.data.message,
        ...(error.data.responseBody ? { detail: error.data.responseBody } : {}),
      }
    case 'ProviderAuthError':
      return { title: `ProviderAuthError (${error.data.providerID})`, message: error.data.message }
    case 'MessageOutputLengthError':
      return { title: 'MessageOutputLengthError', message: "The reply was cut off at the model's output limit." }
    case 'MessageAbortedError':
      return { title: 'MessageAbortedError', message: error.data.message || 'Stopped before it finished.' }
    case 'StructuredOutputError':
      return {
        title: 'StructuredOutputError',
        message: `${error.data.message} (after ${error.data.retries} ${error.data.retries === 1 ? 'retry' : 'retries'})`,
      }
    case 'ContextOverflowError':
      return {
        title: 'ContextOverflowError',
        message: error.data.message,
        ...(error.data.responseBody ? { detail: error.data.responseBody } : {}),
      }
    case 'ContentFilterError':
      return { title: 'ContentFilterError', message: error.data.message }
    case 'UnknownError':
      return {
        title: 'UnknownError',
        message: error.data.message,
        ...(error.data.ref ? { detail: `Reference: ${error.data.ref}` } : {}),
      }
  }
}
