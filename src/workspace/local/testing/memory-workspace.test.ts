import { describeWorkspaceContract } from '../../testing/workspace-contract'
import { createMemoryWorkspace } from './memory-workspace'

describeWorkspaceContract('memory workspace', (files, options) => createMemoryWorkspace(files, options), { runtime: 'offline' })
