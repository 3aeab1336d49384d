import type { SessionEvent } from '../../core/event'
import type { WorkspaceChange } from '../../core/workspace'
import type { ClientApi } from '../../core/protocol'
import type { TerminalApi } from './terminal/shell-session'

/**
 * The part of the worker RPC the workspace views call: narrow, so tests can hand in a small fake. The terminal's
 * calls are optional: without them the Terminal tab shows the agent's log only.
 */
export type WorkspaceApi = Pick<ClientApi, 'workspaceInfo' | 'listFiles' | 'readFile' | 'readPreviewFile' | 'sessionDiffs' | 'saveFile' | 'userEdits' | 'outsideEdits'> &
  Partial<TerminalApi> &
  Partial<FileChangeApi>

/** The file tree's changes (create, rename, move, delete and undo, upload, zip); without them the tree only browses. */
export type FileChangeApi = Pick<
  ClientApi,
  'createFile' | 'createFolder' | 'renameFile' | 'moveFile' | 'deleteFile' | 'restoreDeleted' | 'writeUploaded' | 'zipProject'
>

/** What the tree's actions call. */
export type FileApi = FileChangeApi & Pick<ClientApi, 'readPreviewFile'>

/** Where live events come from (a `WorkerConnection` is one). */
export type EventSource = (handler: (event: SessionEvent) => void) => () => void

export type { WorkspaceChange }
