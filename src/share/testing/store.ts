import type { StoreContext } from '../../store/context'
import { ensureDefaultProject } from '../../store/project-store'
import { makeTestContext } from '../../testing/test-context'

/** An empty database with the default project, which every import and export test starts from. */
export async function setupShareStore() {
  const test = makeTestContext()
  const project = await ensureDefaultProject(test.context)
  return { ...test, projectID: project.id }
}

/** How many sessions, messages and parts are stored: what an import adds, or a refused one must not. */
export async function rowCounts(context: StoreContext) {
  return { sessions: await context.db.sessions.count(), messages: await context.db.messages.count(), parts: await context.db.parts.count() }
}
