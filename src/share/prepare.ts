import { DEFAULT_TOOL_OUTPUT_CHARS } from './limits'
import { redactTranscript, type Redaction } from './redact'
import { shortenToolOutputs } from './shorten'
import type { SessionTranscript } from './transcript'

export interface PrepareOptions {
  /** Share tool outputs whole instead of cut to `toolOutputChars`. */
  includeToolOutput?: boolean
  toolOutputChars?: number
  /** Exact secrets to remove wherever they appear (the stored provider keys). */
  knownSecrets?: readonly string[]
}

export interface PreparedTranscript {
  transcript: SessionTranscript
  redactions: Redaction[]
  /** How many tool outputs (or bulky tool metadata values) were cut. */
  shortened: number
}

/**
 * What leaves the browser: secrets redacted first (so a cut can never leave half a key behind), then tool
 * outputs shortened unless the user asked for them whole.
 */
export function prepareForSharing(transcript: SessionTranscript, options: PrepareOptions = {}): PreparedTranscript {
  const { transcript: redacted, redactions } = redactTranscript(transcript, options.knownSecrets)
  if (options.includeToolOutput) return { transcript: redacted, redactions, shortened: 0 }
  const { transcript: shortened, shortened: count } = shortenToolOutputs(redacted, options.toolOutputChars ?? DEFAULT_TOOL_OUTPUT_CHARS)
  return { transcript: shortened, redactions, shortened: count }
}
