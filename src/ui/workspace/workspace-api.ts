import type { SessionEvent } from '../../core/event'
import type { WorkspaceChange } from '../../core/workspace'
import type { ClientApi } from '../../core/protocol'

/** The part of the worker RPC the workspace views call: narrow, so tests can hand in a small fake. */
export type WorkspaceApi = Pick<ClientApi, 'workspaceInfo' | 'listFiles' | 'readFile' | 'readPreviewFile' | 'sessionDiffs'>

/** Where live events come from (a `WorkerConnection` is one). */
export type EventSource = (handler: (event: SessionEvent) => void) => () => void

export type { WorkspaceChange }
