import { z } from 'zod'
import { idSchema, PermissionActionSchema, timestamp } from './common'

/** One file or directory of a project's persisted workspace; a file's bytes are a blob, stored once per hash. */
export const WorkspaceEntrySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('file'),
    projectID: idSchema('project'),
    path: z.string().startsWith('/'),
    hash: z.string().min(1),
    size: z.number().int().nonnegative(),
    modified: timestamp,
  }),
  z.object({
    type: z.literal('directory'),
    projectID: idSchema('project'),
    path: z.string().startsWith('/'),
    modified: timestamp,
  }),
])
export type WorkspaceEntry = z.infer<typeof WorkspaceEntrySchema>

/** File contents by content hash (SHA-256, hex): shared by the workspace and every snapshot that holds them. */
export const BlobSchema = z.object({
  hash: z.string().min(1),
  data: z.instanceof(Uint8Array),
  size: z.number().int().nonnegative(),
})
export type Blob = z.infer<typeof BlobSchema>

/** The project's files at one moment: path → content hash. Its id is the hash of the manifest itself. */
export const SnapshotSchema = z.object({
  id: z.string().min(1),
  projectID: idSchema('project'),
  files: z.record(z.string(), z.string()),
  time: z.object({ created: timestamp }),
})
export type Snapshot = z.infer<typeof SnapshotSchema>

/**
 * A tool as the user was shown it when asked: an MCP server's tool, which the server may redefine at any time. Kept
 * whole (not as a hash) so that a changed tool's question can show what changed.
 */
export const PinnedToolSchema = z.object({
  type: z.literal('mcp'),
  server: z.string(),
  /** Its name on the server. */
  tool: z.string(),
  description: z.string(),
  /** Its input schema as canonical JSON (keys sorted), so that equal schemas are equal strings. */
  inputSchema: z.string(),
})
export type PinnedTool = z.infer<typeof PinnedToolSchema>

/** An "always" answer, remembered for the project until the user revokes it in settings. */
export const ApprovalSchema = z.object({
  id: idSchema('approval'),
  projectID: idSchema('project'),
  permission: z.string().min(1),
  pattern: z.string().min(1),
  action: PermissionActionSchema,
  /** The tool's definition when it was allowed: the approval holds only while the tool is still that (issue 27). */
  tool: PinnedToolSchema.optional(),
  time: z.object({ created: timestamp }),
})
export type Approval = z.infer<typeof ApprovalSchema>

/** A question a tool put to the user, waiting for an answer; any tab of the session may answer it. */
export const PermissionAskSchema = z.object({
  id: idSchema('permission'),
  sessionID: idSchema('session'),
  projectID: idSchema('project'),
  messageID: idSchema('message'),
  callID: z.string().optional(),
  permission: z.string().min(1),
  patterns: z.array(z.string()),
  /** What "always" would remember (e.g. `git commit *` for `git commit -m x`). */
  always: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  /** The tool being allowed, as "always" would pin it (an MCP tool). */
  tool: PinnedToolSchema.optional(),
  /** The same tool as the user allowed it before it changed: its approval no longer holds, so it asks again. */
  changedFrom: PinnedToolSchema.optional(),
  time: z.object({ created: timestamp }),
})
export type PermissionAsk = z.infer<typeof PermissionAskSchema>

export const PermissionReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('once') }),
  z.object({ type: z.literal('always') }),
  z.object({ type: z.literal('reject'), feedback: z.string().optional() }),
  /** The answer to a `question` ask: one list of chosen labels or typed text per question. */
  z.object({ type: z.literal('answer'), answers: z.array(z.array(z.string())) }),
])
export type PermissionReply = z.infer<typeof PermissionReplySchema>

/**
 * The folder on disk a project is (its origin is `disk`), by the browser's handle to it. The handle is the only way
 * back to the folder: IndexedDB keeps it as a structured clone, and after a browser restart the user grants access
 * again with one click. It is never exported (a handle means nothing in another browser).
 */
export const ProjectFolderSchema = z.object({
  type: z.literal('folder'),
  projectID: idSchema('project'),
  /** The folder's name as the browser gives it, for "Reconnect to NAME". */
  name: z.string().min(1),
  handle: z.custom<FileSystemDirectoryHandle>(
    (value) => typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'directory',
    'a directory handle',
  ),
})
export type ProjectFolder = z.infer<typeof ProjectFolderSchema>
