import type { Transaction } from 'dexie'
import type { Project, ProjectOrigin, ProjectTrust } from '../core/schema'

/** A project row as versions 1 to 6 stored it: without a trust state or an origin. */
type StoredProject = Omit<Project, 'trust' | 'origin'> & Partial<Pick<Project, 'trust' | 'origin'>>

/**
 * Version 7 (project trust, issue 27): every project row gets a trust state and an origin. Where a project came
 * from was not recorded, so each starts untrusted with an unknown origin (its files can only tighten rules until the
 * user trusts it), except the oldest: `ensureDefaultProject` makes it, empty, before anything else can make a
 * project, and no project can be deleted, so it is the app's first project, which the user started with nothing in
 * it, as a new empty project is (trusted since it was made, with no allow rule of its files seen yet: the first
 * review lets the user's own rules apply, see `ProjectTrustSchema`). Nothing else of a row changes.
 */
export async function addProjectTrust(transaction: Transaction): Promise<void> {
  const projects = transaction.table<StoredProject, string>('projects')
  const first = await projects.orderBy('id').first()
  await projects.toCollection().modify((project) => {
    const own = project.id === first?.id
    const origin: ProjectOrigin = own ? { type: 'empty' } : { type: 'unknown' }
    const trust: ProjectTrust = own ? { type: 'trusted', time: project.time.created } : { type: 'untrusted' }
    // A row a later build already wrote these on keeps them.
    project.origin ??= origin
    project.trust ??= trust
  })
}
