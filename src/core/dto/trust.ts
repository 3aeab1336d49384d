import type { ProjectFilesReview, WithheldRule } from '../project-files/trust'
import type { Project } from '../schema'

export type { CommandRedirect, ProjectFilesReview, WithheldRule } from '../project-files/trust'

/** A project's trust, and what its own files change once it is trusted (while trusted: what they change now). */
export interface ProjectTrustReport {
  project: Project
  review: ProjectFilesReview
  /** In a trusted project, the `allow` rules its files hold that the user has not seen yet (none in an untrusted one). */
  unreviewed: WithheldRule[]
}
