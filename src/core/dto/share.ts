import type { Project, SessionInfo } from '../schema'

// What the share, export and import operations take and give back over the worker boundary (share/ implements them).

/** One secret taken out before sharing: what it looked like and where it was, never the secret itself. */
export interface Redaction {
  kind: string
  /** Where, for a person: `Message 4 (assistant) · tool "bash" · output`. */
  where: string
  /** Where, for code: the path from the transcript root. */
  path: (string | number)[]
  /** At most the first four characters and the length, enough to recognise which key it was. */
  hint: string
}

/** A session written by an import (or the earlier copy of the same input). */
export interface ImportedSession {
  session: SessionInfo
  /** True when this input had been imported before: the existing session is returned and nothing is written. */
  duplicate: boolean
  counts: { sessions: number; messages: number; parts: number }
  /** The new project an export's workspace files were restored into (untrusted until the user trusts it). */
  project?: Project
}

/** What restoring a backup wrote. */
export interface RestoredBackup {
  /** Root sessions written. */
  imported: SessionInfo[]
  /** Root sessions left out because they are still here or an earlier restore of this backup wrote them. */
  skipped: number
  /** Projects the backup needed that did not exist here. */
  projects: Project[]
  counts: { sessions: number; messages: number; parts: number }
}

export type ImportOutcome = ({ kind: 'session' } & ImportedSession) | ({ kind: 'backup' } & RestoredBackup)

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
  /** The prompts' attachments the link carries, and the characters their data take before compression. */
  attachments?: { count: number; chars: number }
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
  /**
   * The file's JSON, built in pieces: a Blob's bytes live outside the JS heap and cross to the page without a copy,
   * where one string of a 100,000-message session (~100 MB) would sit in both heaps.
   */
  data: Blob
  redactions: Redaction[]
  /** Binary workspace files left out because they could not be scanned for secrets. */
  leftOut?: string[]
}

/** What an export with workspace files could not scan for secrets (binary files), by path, with their size. */
export interface ExportFilesPreview {
  unscanned: { path: string; bytes: number }[]
}
