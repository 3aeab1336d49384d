import { AppError } from '../session/errors'
import type { ConnectionResult } from '../worker/protocol'

export interface ModelNotFoundData extends Record<string, unknown> {
  providerID: string
  modelID: string
  /** `providerID/modelID` of configured models that look like the one asked for. */
  suggestions: string[]
}

/** A message or setting points at a provider or model that is not (or no longer) configured. */
export class ModelNotFoundError extends AppError<ModelNotFoundData> {
  constructor(message: string, data: ModelNotFoundData) {
    super('ModelNotFoundError', message, data)
  }

  static isInstance(error: unknown): error is ModelNotFoundError {
    return error instanceof AppError && error.name === 'ModelNotFoundError'
  }
}

/** A hosted provider (OpenAI, Anthropic, Gemini) has no key stored, so no request can succeed. */
export class MissingApiKeyError extends AppError<{ providerID: string }> {
  constructor(providerID: string, providerName: string) {
    super('MissingApiKeyError', `${providerName} has no API key. Add one in Settings.`, { providerID })
  }
}

type ConnectionFailure = Extract<ConnectionResult, { status: 'failed' }>

/** Listing a provider's models failed; carries the same cause "Test connection" would report. */
export class ConnectionError extends AppError<{ cause: ConnectionFailure['cause']; statusCode?: number }> {
  constructor(failure: ConnectionFailure) {
    super('ConnectionError', failure.message, {
      cause: failure.cause,
      ...(failure.statusCode !== undefined ? { statusCode: failure.statusCode } : {}),
    })
  }
}
