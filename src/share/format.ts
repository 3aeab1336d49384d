import { z } from 'zod'
import { MessageSchema, PartSchema, ProjectSchema, SessionInfoSchema } from '../core/schema'
import type { SessionTranscript } from './transcript'

/**
 * The file formats (documented in docs/export-format.md). Each document names its `format` and `version`; a reader
 * refuses a version above the one it knows with "made by a newer tabcode" rather than guessing.
 */
export const SESSION_FORMAT = 'tabcode-session'
export const BACKUP_FORMAT = 'tabcode-backup'
export const SESSION_FORMAT_VERSION = 1
export const BACKUP_FORMAT_VERSION = 1

export const MessageWithPartsSchema = z.object({ info: MessageSchema, parts: z.array(PartSchema) })

export const SessionTranscriptSchema: z.ZodType<SessionTranscript> = z.lazy(() =>
  z.object({
    info: SessionInfoSchema,
    messages: z.array(MessageWithPartsSchema),
    children: z.array(SessionTranscriptSchema).optional(),
  }),
)

/** A file of the workspace as it was at the session's last snapshot: UTF-8 text as is, anything else in base64. */
export const WorkspaceFileSchema = z.union([
  z.object({ path: z.string().min(1), text: z.string() }),
  z.object({ path: z.string().min(1), base64: z.string() }),
])
export type WorkspaceFile = z.infer<typeof WorkspaceFileSchema>

const ExportedSchema = z.object({
  /** When the document was made (epoch ms). */
  time: z.number().int().nonnegative(),
  /** The tabcode version that made it. */
  app: z.string(),
})

export const SessionExportSchema = z.object({
  format: z.literal(SESSION_FORMAT),
  version: z.literal(SESSION_FORMAT_VERSION),
  exported: ExportedSchema,
  session: SessionTranscriptSchema,
  files: z.array(WorkspaceFileSchema).optional(),
})
export type SessionExport = z.infer<typeof SessionExportSchema>

/**
 * A project in a backup: what it is called and where its sessions start. Never its trust: a backup file can come
 * from anyone, so a project it recreates waits for the user's trust like any import.
 */
export const BackupProjectSchema = ProjectSchema.pick({ id: true, name: true, directory: true, time: true })
export type BackupProject = z.infer<typeof BackupProjectSchema>

export const BackupSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_FORMAT_VERSION),
  exported: ExportedSchema,
  projects: z.array(BackupProjectSchema),
  sessions: z.array(SessionInfoSchema),
  messages: z.array(MessageSchema),
  parts: z.array(PartSchema),
})
export type Backup = z.infer<typeof BackupSchema>

/** Just enough to route a document before validating it whole. */
export const FormatHeaderSchema = z.object({ format: z.string(), version: z.number() })

export const SUPPORTED_VERSIONS: Record<string, number> = {
  [SESSION_FORMAT]: SESSION_FORMAT_VERSION,
  [BACKUP_FORMAT]: BACKUP_FORMAT_VERSION,
}
