import type { StoreContext } from './context'
import { NotFoundError, parseWith } from '../core/errors'
import { ascending } from '../core/id'
import { z } from 'zod'
import { ProjectSchema, ReviewedRuleSchema, type Project, type ProjectTrust, type ReviewedRule } from '../core/schema'
import { DEFAULT_DIRECTORY } from './session-store'
import { initialTrust } from '../core/project-files/trust'
import { withReviewed } from '../core/project-files/reviewed-rules'
import { write } from './transaction'

/** The project new sessions belong to until projects can be created (workspace issue): the oldest one, or a fresh one. */
export async function ensureDefaultProject(context: StoreContext): Promise<Project> {
  const { db } = context
  return write(context, [db.projects], async () => {
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

/**
 * Trusts a project or stops trusting it; every tab hears of it. `reviewed` are the allow rules of its files the
 * user was shown when deciding: only they apply (`core/project-files/reviewed-rules.ts`). Trusting a project that is
 * trusted already adds them to those the user has seen (the review of rules written since) and keeps its time.
 */
export async function setProjectTrust(context: StoreContext, projectID: string, trusted: boolean, reviewed: readonly ReviewedRule[] = []): Promise<Project> {
  // The page sends them: checked here, before they are compared with the stored ones.
  const seen = parseWith(z.array(ReviewedRuleSchema), reviewed, 'reviewed rules')
  return changeTrust(context, projectID, (trust, now): ProjectTrust => {
    if (!trusted) return { type: 'untrusted' }
    if (trust.type === 'trusted') return { ...trust, reviewed: withReviewed(trust.reviewed ?? [], seen) }
    return { type: 'trusted', time: now, reviewed: withReviewed([], seen) }
  })
}

/**
 * Changes the allow rules the user has seen in a trusted project (after the user wrote, moved or deleted its files
 * through the app); an untrusted one has none to change. Every tab hears of a change.
 */
export async function updateReviewedRules(context: StoreContext, projectID: string, change: (reviewed: ReviewedRule[]) => ReviewedRule[]): Promise<void> {
  await changeTrust(context, projectID, (trust) => (trust.type === 'trusted' ? { ...trust, reviewed: change(trust.reviewed ?? []) } : trust))
}

/** Writes the project's trust as `change` makes it, in one transaction; nothing is written or heard when it stays the same. */
async function changeTrust(context: StoreContext, projectID: string, change: (trust: ProjectTrust, now: number) => ProjectTrust): Promise<Project> {
  const { db } = context
  return write(context, [db.projects], async (announce) => {
    const project = await db.projects.get(projectID)
    if (!project) throw new NotFoundError('project', projectID)
    const now = context.now()
    const trust = change(project.trust, now)
    if (JSON.stringify(trust) === JSON.stringify(project.trust)) return project
    const next = parseWith(ProjectSchema, { ...project, trust, time: { ...project.time, updated: now } }, 'project')
    await db.projects.put(next)
    announce({ type: 'project.updated', info: next })
    return next
  })
}
