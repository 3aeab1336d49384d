import type { StoreContext } from './context'
import { parseWith } from './errors'
import { ascending } from './id'
import { ProjectSchema, type Project } from './schema'
import { DEFAULT_DIRECTORY } from './session-store'

/** The project new sessions belong to until projects can be created (workspace issue): the oldest one, or a fresh one. */
export async function ensureDefaultProject(context: StoreContext): Promise<Project> {
  const { db } = context
  return db.transaction('rw', db.projects, async () => {
    const existing = await db.projects.orderBy('id').first()
    if (existing) return existing
    const now = context.now()
    const project = parseWith(
      ProjectSchema,
      { id: ascending('project', now), name: 'My project', directory: DEFAULT_DIRECTORY, time: { created: now, updated: now } },
      'project',
    )
    await db.projects.add(project)
    return project
  })
}

export function listProjects(context: StoreContext): Promise<Project[]> {
  return context.db.projects.orderBy('id').toArray()
}
