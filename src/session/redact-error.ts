import type { MessageError } from '../core/schema'

/** Every string of an error, through the provider's redaction: what is stored and shown never holds its key. */
export function redactError(error: MessageError, redact: ((text: string) => string) | undefined): MessageError {
  if (!redact) return error
  const clean = (value: unknown): unknown =>
    typeof value === 'string'
      ? redact(value)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, clean(inner)]))
        : value
  return clean(error) as MessageError
}
