import type { StoreContext } from '../store/context'
import { getBlobs } from '../store/blobs'
import { loadSessionTree, readBackupRows } from '../store/share'
import { findSnapshot } from '../store/snapshots'
import { decode } from '../snapshot/diff'
import { isContentHash } from '../snapshot/manifest'
import { encodeBase64 } from './base64url'
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  SESSION_FORMAT,
  SESSION_FORMAT_VERSION,
  type Backup,
  type BackupProject,
  type SessionExport,
  type WorkspaceFile,
} from './format'
import { redactText, redactTranscript, redactValue, type Redaction } from './redact'
import type { SessionTranscript } from './transcript'
import { inlineAttachments, inlinePartAttachments } from './attachments'
import { throwIfCancelled } from '../core/errors'
import { createPacer } from '../core/macrotask'
import type { OperationControl, ProgressUnit } from '../core/progress'

/**
 * A session with its messages and parts (oldest first, parts in id order) and its children, as stored but for the
 * attachments, which carry their bytes (a data URL instead of the blob's name): what every export and link sends.
 */
export async function loadTranscript(context: Pick<StoreContext, 'db'>, sessionID: string): Promise<SessionTranscript> {
  return inlineAttachments(context, await loadSessionTree(context, sessionID))
}

/** The last snapshot a session's steps recorded (the workspace as the session left it), if any. */
export function lastSnapshotID(transcript: SessionTranscript): string | undefined {
  let last: string | undefined
  for (const message of transcript.messages) {
    for (const part of message.parts) {
      if ((part.type === 'step-start' || part.type === 'step-finish') && part.snapshot) last = part.snapshot
    }
  }
  return last
}

/** The files of a snapshot: UTF-8 text as text, other content as base64; files recorded only by size are left out. */
export async function snapshotFiles(context: Pick<StoreContext, 'db'>, snapshotID: string): Promise<WorkspaceFile[]> {
  const snapshot = await findSnapshot(context, snapshotID)
  if (!snapshot) return []
  const paths = Object.keys(snapshot.files).filter((path) => isContentHash(snapshot.files[path]!)).sort()
  const blobs = await getBlobs(context, paths.map((path) => snapshot.files[path]!))
  const files: WorkspaceFile[] = []
  paths.forEach((path, index) => {
    const blob = blobs[index]
    if (!blob) return
    const text = decode({ type: 'bytes', data: blob.data })
    files.push(text === null ? { path, base64: encodeBase64(blob.data) } : { path, text })
  })
  return files
}

/** A workspace file that is not UTF-8 text, so nothing could check it for secrets. */
export interface UnscannedFile {
  path: string
  bytes: number
}

/** The files an export with workspace files could not scan for secrets (binary files), for the user to decide on. */
export async function unscannedFiles(context: Pick<StoreContext, 'db'>, sessionID: string): Promise<UnscannedFile[]> {
  const snapshot = lastSnapshotID(await loadTranscript(context, sessionID))
  if (!snapshot) return []
  return (await snapshotFiles(context, snapshot)).flatMap((file) =>
    'base64' in file ? [{ path: file.path, bytes: decodedLength(file.base64) }] : [],
  )
}

function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0
  return (base64.length / 4) * 3 - padding
}

export interface ExportOptions {
  /** Add the workspace files of the session's last snapshot. */
  includeFiles?: boolean
  /**
   * Binary files to add anyway, by path. A binary file can't be scanned for secrets, so one the user did not
   * choose to keep is left out: a key planted in it would otherwise leave verbatim.
   */
  includeUnscanned?: readonly string[]
  /** Exact secrets to remove wherever they appear (the stored provider keys). */
  knownSecrets?: readonly string[]
}

export interface ExportedDocument<T> {
  document: T
  redactions: Redaction[]
  /** Paths of binary files left out because they could not be scanned. */
  leftOut?: string[]
}

/**
 * A `tabcode-session` document of one stored session, secrets redacted. `control` hears that it reads, then how many
 * messages (children's included) are redacted; cancelled, it stops with `CancelledError` after the step it is in.
 */
export async function exportSession(
  context: Pick<StoreContext, 'db' | 'now' | 'version'>,
  sessionID: string,
  options: ExportOptions = {},
  control: OperationControl = {},
): Promise<ExportedDocument<SessionExport>> {
  const { onProgress, signal } = control
  onProgress?.({ type: 'working' })
  const stored = await loadTranscript(context, sessionID)
  throwIfCancelled(signal, 'The export')
  const total = countMessages(stored)
  let done = 0
  onProgress?.({ type: 'count', unit: 'messages', done, total })
  const { transcript, redactions } = redactTranscript(
    stored,
    options.knownSecrets,
    onProgress && (() => onProgress({ type: 'count', unit: 'messages', done: Math.min(total, ++done), total })),
  )
  throwIfCancelled(signal, 'The export')
  const document: SessionExport = {
    format: SESSION_FORMAT,
    version: SESSION_FORMAT_VERSION,
    exported: { time: context.now(), app: context.version },
    session: transcript,
  }
  const snapshot = options.includeFiles ? lastSnapshotID(stored) : undefined
  const leftOut: string[] = []
  if (snapshot) {
    const keep = new Set(options.includeUnscanned ?? [])
    const files = (await snapshotFiles(context, snapshot)).filter((file) => {
      if ('text' in file || keep.has(file.path)) return true
      leftOut.push(file.path)
      return false
    })
    document.files = files.map((file, index) => {
      if (!('text' in file)) return file
      const { text, found } = redactText(file.text, options.knownSecrets)
      for (const item of found) redactions.push({ ...item, path: ['files', index, 'text'], where: `Workspace file ${file.path}` })
      return { path: file.path, text }
    })
  }
  throwIfCancelled(signal, 'The export')
  return { document, redactions, ...(leftOut.length ? { leftOut } : {}) }
}

function countMessages(transcript: SessionTranscript): number {
  return transcript.messages.length + (transcript.children ?? []).reduce((sum, child) => sum + countMessages(child), 0)
}

/**
 * A `tabcode-backup` document: every project, session, message and part. Never providers, keys or settings,
 * and secrets in the conversations are redacted like in any export.
 */
export async function exportBackup(
  context: Pick<StoreContext, 'db' | 'now' | 'version'>,
  options: Pick<ExportOptions, 'knownSecrets'> = {},
  control: OperationControl = {},
): Promise<ExportedDocument<Backup>> {
  const { onProgress, signal } = control
  onProgress?.({ type: 'working' })
  const stored = await readBackupRows(context)
  const redactions: Redaction[] = []
  // A turn for other work now and then, so a cancel the page sent is heard while a large backup is redacted.
  const pace = createPacer(50)
  const clean = async <T>(rows: T[], table: string, unit?: ProgressUnit): Promise<T[]> => {
    const total = rows.length
    const out: T[] = []
    for (let index = 0; index < total; index++) {
      const { value, found } = redactValue(rows[index]!, options.knownSecrets)
      for (const item of found) redactions.push({ ...item, path: [table, index, ...item.path], where: `${table} row ${index + 1} · ${item.path.join('.')}` })
      out.push(value)
      if (unit) onProgress?.({ type: 'count', unit, done: index + 1, total })
      await pace()
      throwIfCancelled(signal, 'The backup')
    }
    return out
  }
  throwIfCancelled(signal, 'The backup')
  // The format's fields only: whether this browser trusts a project is not the backup's to carry.
  const projects = await clean(stored.projects.map(({ id, name, directory, time }): BackupProject => ({ id, name, directory, time })), 'projects')
  const sessions = await clean(stored.sessions, 'sessions', 'sessions')
  const messages = await clean(stored.messages, 'messages', 'messages')
  const parts = await clean(await inlinePartAttachments(context, stored.parts), 'parts', 'parts')
  return {
    document: { format: BACKUP_FORMAT, version: BACKUP_FORMAT_VERSION, exported: { time: context.now(), app: context.version }, projects, sessions, messages, parts },
    redactions,
  }
}

/** A file name for a download: the title made safe for every file system. */
export function exportFileName(title: string, kind: 'session' | 'opencode' | 'backup', time: number): string {
  const date = new Date(time).toISOString().slice(0, 10)
  if (kind === 'backup') return `tabcode-backup-${date}.json`
  const slug = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60)
    .toLowerCase()
  return `${slug || 'session'}-${date}.${kind === 'opencode' ? 'opencode' : 'tabcode'}.json`
}
