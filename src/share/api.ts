// Type-only: the UI imports this (through core/protocol.ts) and must not pull zod or fflate into its bundle.
import type { ImportOutcome } from './open'
import type { Redaction } from './redact'

export type { ImportOutcome, Redaction }

/** What the share dialog chooses. `base` is the page the link opens (origin and path; any fragment is dropped). */
export interface ShareLinkInput {
  sessionID: string
  base: string
  /** Share tool outputs whole instead of cut to 200 characters. */
  includeToolOutput?: boolean
}

/** The size meter and the redaction preview, without making the link. */
export interface ShareLinkPreview {
  chars: number
  /** Links longer than this are refused (export a file instead). */
  limit: number
  /** Up to this length a link shows whole in Chrome's address bar and pastes anywhere. */
  comfortable: number
  redactions: Redaction[]
  /** How many tool outputs were shortened. */
  shortened: number
}

export interface ShareLinkResult {
  url: string
  chars: number
  redactions: Redaction[]
  shortened: number
  encrypted: boolean
}

/** A download the UI saves: the file name and its JSON text. */
export interface ExportFile {
  fileName: string
  text: string
  redactions: Redaction[]
  /** Binary workspace files left out because they could not be scanned for secrets. */
  leftOut?: string[]
}

/** What an export with workspace files could not scan for secrets (binary files), by path, with their size. */
export interface ExportFilesPreview {
  unscanned: { path: string; bytes: number }[]
}
