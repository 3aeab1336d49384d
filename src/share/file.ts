import { describeIssues } from '../core/errors'
import { checkCounts, checkJsonShape, checkTranscriptCounts } from './caps'
import { decodeBase64 } from './base64url'
import { ImportCorruptError, ImportInvalidError, ImportNewerVersionError, ImportTooLargeError } from './errors'
import {
  BackupSchema,
  BACKUP_FORMAT,
  FormatHeaderSchema,
  SESSION_FORMAT,
  SessionExportSchema,
  SUPPORTED_VERSIONS,
  type Backup,
  type WorkspaceFile,
} from './format'
import { contentHash } from './hash'
import { IMPORT_LIMITS } from './limits'
import { decodeUtf8, parseJson, validateTranscript } from './link'
import { transcriptProblem, type SessionTranscript } from './transcript'

/** opencode's export (`{info, messages: [{info, parts}]}`) → our transcript; the converter lives in ./opencode. */
export type FromOpencode = (json: unknown) => SessionTranscript

export type ImportDocument =
  | { kind: 'session'; transcript: SessionTranscript; files: WorkspaceFile[]; hash: string }
  | { kind: 'opencode'; transcript: SessionTranscript; hash: string }
  | { kind: 'backup'; backup: Backup; hash: string }

/**
 * The shape `opencode export` prints (a session `info` with an id and the `messages` with their parts), or the
 * flat `[{type, data}]` rows of an opencode share page, which the converter also reads.
 */
export function looksLikeOpencodeExport(value: unknown): boolean {
  if (Array.isArray(value)) {
    return value.some((row) => !!row && typeof row === 'object' && (row as Record<string, unknown>).type === 'session' && typeof (row as Record<string, unknown>).data === 'object')
  }
  if (!value || typeof value !== 'object') return false
  const record = value as Record<string, unknown>
  const info = record.info as Record<string, unknown> | undefined
  return !('format' in record) && !!info && typeof info === 'object' && typeof info.id === 'string' && Array.isArray(record.messages)
}

/**
 * Reads an imported file (untrusted) into a validated document without writing anything: size cap, UTF-8,
 * JSON, nesting and string caps, then the format's schema and row-count caps. Which format it is comes from its
 * `format` field; a file without one that has opencode's shape goes to the opencode converter.
 */
export async function readImportFile(input: Uint8Array | string, options: { fromOpencode?: FromOpencode } = {}): Promise<ImportDocument> {
  const size = typeof input === 'string' ? input.length : input.length
  if (size > IMPORT_LIMITS.fileBytes) throw new ImportTooLargeError('the file (bytes)', IMPORT_LIMITS.fileBytes)
  if (size === 0) throw new ImportCorruptError('the file is empty')
  const text = typeof input === 'string' ? input : decodeUtf8(input)
  const hash = await contentHash(input)
  const value = parseJson(text)
  checkJsonShape(value)
  const header = FormatHeaderSchema.safeParse(value)
  if (header.success) {
    const { format, version } = header.data
    const supported = SUPPORTED_VERSIONS[format]
    if (supported === undefined) {
      if (format.startsWith('tabcode-')) throw new ImportNewerVersionError(format, version, 0)
      throw new ImportInvalidError(`"${format}" is not a format tabcode reads`)
    }
    if (version > supported) throw new ImportNewerVersionError(format, version, supported)
    if (format === SESSION_FORMAT) {
      const parsed = SessionExportSchema.safeParse(value)
      if (!parsed.success) throw new ImportInvalidError(describeIssues(parsed.error))
      const transcript = parsed.data.session
      checkTranscriptCounts(transcript)
      const problem = transcriptProblem(transcript)
      if (problem) throw new ImportInvalidError(problem)
      const files = parsed.data.files ?? []
      if (files.length > IMPORT_LIMITS.workspaceFiles) throw new ImportTooLargeError('the number of workspace files', IMPORT_LIMITS.workspaceFiles)
      return { kind: 'session', transcript, files, hash }
    }
    if (format === BACKUP_FORMAT) {
      const parsed = BackupSchema.safeParse(value)
      if (!parsed.success) throw new ImportInvalidError(describeIssues(parsed.error))
      checkCounts({ sessions: parsed.data.sessions.length, messages: parsed.data.messages.length, parts: parsed.data.parts.length })
      return { kind: 'backup', backup: parsed.data, hash }
    }
  }
  if (looksLikeOpencodeExport(value)) {
    if (!options.fromOpencode) throw new ImportInvalidError('opencode exports cannot be read by this build')
    let converted: SessionTranscript
    try {
      converted = options.fromOpencode(value)
    } catch (error) {
      // The converter's own errors become the one invalid-content error the UI knows, with its explanation kept.
      if (error instanceof Error && error.name.startsWith('Import')) throw error
      throw new ImportInvalidError(`not a readable opencode export: ${error instanceof Error ? error.message : String(error)}`)
    }
    return { kind: 'opencode', transcript: validateTranscript(converted), hash }
  }
  throw new ImportInvalidError('this is neither a tabcode export nor an opencode export')
}

/** Workspace files of an export as the project creator takes them: path and bytes. */
export function decodeWorkspaceFiles(files: readonly WorkspaceFile[]): { path: string; data: Uint8Array }[] {
  const encoder = new TextEncoder()
  return files.map((file) => ({ path: file.path, data: 'text' in file ? encoder.encode(file.text) : decodeBase64(file.base64) }))
}
