import type { StoreContext } from './context'
import { NotFoundError, parseWith } from '../core/errors'
import { ascending } from '../core/id'
import { ProjectSchema, type Project } from '../core/schema'
import { DEFAULT_DIRECTORY } from './session-store'
import { initialTrust } from '../core/project-files/trust'

/** The project new sessions belong to until projects can be created (workspace issue): the oldest one, or a fresh one. */
export async function ensureDefaultProject(context: StoreContext): Promise<Project> {
  const { db } = context
  return db.transaction('rw', db.projects, async () => {
    const existing = await db.projects.orderBy('id').first()
    if (existing) return existing
    const now = context.now()
    const project = parseWith(
      ProjectSchema,
      {
        id: ascending('project', now),
        name: 'My project',
        directory: DEFAULT_DIRECTORY,
        // Made empty for the user, as a new empty project is: theirs.
        origin: { type: 'empty' },
        trust: initialTrust({ type: 'empty' }, now),
        time: { created: now, updated: now },
      },
      'project',
    )
    await db.projects.add(project)
    return project
  })
}

/** A project as stored, if it is. */
export function findProject(context: StoreContext, projectID: string): Promise<Project | undefined> {
  return context.db.projects.get(projectID)
}

export function listProjects(context: StoreContext): Promise<Project[]> {
  return context.db.projects.orderBy('id').toArray()
}

/** The project the user last opened, if it still exists; else the default one. */
export async function currentProject(context: StoreContext): Promise<Project> {
  const row = await context.db.settings.get('project.current')
  const chosen = row?.key === 'project.current' ? await context.db.projects.get(row.value) : undefined
  return chosen ?? ensureDefaultProject(context)
}

/** Makes `projectID` the one the app opens with from now on. */
export async function rememberCurrentProject(context: StoreContext, projectID: string): Promise<Project> {
  const project = await context.db.projects.get(projectID)
  if (!project) throw new NotFoundError('project', projectID)
  await context.db.settings.put({ key: 'project.current', value: projectID })
  return project
}

/** Trusts a project (its files' rules then apply as written) or stops trusting it; every tab hears of it. */
export async function setProjectTrust(context: StoreContext, projectID: string, trusted: boolean): Promise<Project> {
  const { db } = context
  const updated = await db.transaction('rw', db.projects, async () => {
    const project = await db.projects.get(projectID)
    if (!project) throw new NotFoundError('project', projectID)
    const now = context.now()
    const next = parseWith(
      ProjectSchema,
      { ...project, trust: trusted ? { type: 'trusted', time: now } : { type: 'untrusted' }, time: { ...project.time, updated: now } },
      'project',
    )
    await db.projects.put(next)
    return next
  })
  context.emit({ type: 'project.updated', info: updated })
  return updated
}
