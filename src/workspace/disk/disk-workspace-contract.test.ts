import { describeWorkspaceContract } from '../testing/workspace-contract'
import { openDiskWorkspace } from './disk-workspace'
import { MemoryDirectory } from './testing/memory-directory'

describeWorkspaceContract(
  'disk workspace',
  async (files = {}, options) => {
    const relative = Object.fromEntries(Object.entries(files).map(([path, text]) => [path.replace(/^\/workspace\//, ''), text]))
    return openDiskWorkspace({ handle: MemoryDirectory.from(relative, { now: options?.now }), observe: false, scanReuseMs: 0 })
  },
  { runtime: 'offline' },
)
