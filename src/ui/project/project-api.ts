import type { ClientApi } from '../../core/protocol'

/** The worker operations the project picker and the new-project dialog use (a folder project's reconnect too). */
export type ProjectApi = Pick<ClientApi, 'listProjects' | 'createProject' | 'openProject' | 'projectFolder' | 'connectFolder' | 'refreshFolder' | 'cancelOperation'>
