import type { OperationInput, ProgressCallback } from './operations'
import type { ExportFile, ExportFilesPreview, ImportOutcome, ShareLinkInput, ShareLinkPreview, ShareLinkResult } from '../dto/share'

/** The file formats a session exports to. */
export type ExportFormat = 'tabcode' | 'opencode'

/** Share links (issue 6), exports and imports. */
export interface ShareApi {
  /** The size meter and redaction preview; `encrypted` counts the passphrase's overhead. */
  previewShareLink(input: ShareLinkInput & { encrypted?: boolean }): ShareLinkPreview
  /** Makes the link (ShareTooLongError past 512 K characters); a passphrase only encrypts it and is never stored. */
  createShareLink(input: ShareLinkInput & { passphrase?: string }): ShareLinkResult
  /** Whether a link needs a passphrase, so the UI can ask before opening it. */
  inspectShareLink(link: string): { encrypted: boolean; version: number }
  /** Opens a link into the current project (read-only; the same link twice gives the same session). */
  openShareLink(input: { link: string; passphrase?: string }): ImportOutcome
  /**
   * A session as a file: `tabcode` (a `tabcode-session` of the session and its children, optionally with its last
   * snapshot's workspace files) or `opencode` (what `opencode export` writes, for `opencode import`; one session, no
   * files).
   */
  exportSession(
    input: { sessionID: string; format?: ExportFormat; includeFiles?: boolean; includeUnscanned?: string[] } & OperationInput,
    onProgress?: ProgressCallback,
  ): ExportFile
  /** The workspace files an export could not scan for secrets (binary), so the user can choose to keep them. */
  previewExportFiles(input: { sessionID: string }): ExportFilesPreview
  /** A `tabcode-backup` file: every project, session, message and part; never providers, keys or settings. */
  exportBackup(input?: OperationInput, onProgress?: ProgressCallback): ExportFile
  /**
   * Imports a tabcode session or backup file, or an opencode export: `working` while the file is read and checked,
   * then the messages written; cancelled (`cancelOperation`), it stores nothing.
   */
  importFile(input: { data: Uint8Array | string } & OperationInput, onProgress?: ProgressCallback): ImportOutcome
}
