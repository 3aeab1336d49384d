import type { WorkerHandlers } from '../core/protocol'

/**
 * The operations that need the agent loop, the providers, the AI SDK, the tools or WebContainer. The worker's entry
 * answers everything else (the first screen's reads, opening a session, reading its stored files) and loads this
 * module with `import()` once it is idle or on the first call that needs it; each of these is forwarded, so a
 * prompt sent before then just waits for it.
 */
export const ENGINE_METHODS = [
  'prompt', 'cancel', 'resume', 'answerPrompt', 'flush', 'editQueuedPrompt', 'removeQueuedPrompt',
  'createProject', 'attachWorkspace',
  'pendingAsks', 'replyAsk', 'listApprovals', 'revokeApproval',
  'compactSession', 'undoCompaction', 'modelView', 'mcpStatus', 'mcpSignIn', 'mcpFinishSignIn', 'mcpSignOut',
  'forkSession', 'revertPreview', 'revertSession', 'unrevertSession',
  'previewShareLink', 'createShareLink', 'inspectShareLink', 'openShareLink', 'exportSession', 'previewExportFiles', 'exportBackup', 'importFile',
  'saveFile', 'userEdits', 'createFile', 'createFolder', 'renameFile', 'moveFile', 'deleteFile', 'restoreDeleted', 'writeUploaded', 'zipProject',
  'terminalOpen', 'terminalRun', 'terminalCancel', 'terminalClose',
] as const satisfies readonly (keyof WorkerHandlers)[]

export type EngineMethod = (typeof ENGINE_METHODS)[number]
