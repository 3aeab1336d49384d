import type { ClientApi } from '../../core/protocol'

/** The worker operations the project picker and the new-project dialog use. */
export type ProjectApi = Pick<ClientApi, 'listProjects' | 'createProject' | 'openProject'>
