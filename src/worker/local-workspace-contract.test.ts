import { afterEach } from 'vitest'
import { TabcodeDatabase } from '../store/database'
import { createDexieStorage } from '../store/dexie-storage'
import { createLocalWorkspace } from '../workspace/local/local-workspace'
import { describeWorkspaceContract } from '../workspace/testing/workspace-contract'

// The local workspace as the worker wires it, over the IndexedDB storage of one project. It sits in worker/ because
// the storage is store's and only the composition root may import both store and workspace.
const databases: TabcodeDatabase[] = []
afterEach(async () => {
  for (const db of databases.splice(0)) await db.delete()
})

describeWorkspaceContract(
  'local workspace over IndexedDB',
  async (files = {}, options = {}) => {
    const db = new TabcodeDatabase(`workspace-${crypto.randomUUID()}`)
    databases.push(db)
    const workspace = await createLocalWorkspace({ storage: createDexieStorage(db, 'prj_test1'), now: options.now })
    for (const [path, content] of Object.entries(files)) await workspace.writeFile(path, content)
    return workspace
  },
  { runtime: 'offline' },
)
