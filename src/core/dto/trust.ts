import type { ProjectFilesReview } from '../project-files/trust'
import type { Project } from '../schema'

export type { CommandRedirect, ProjectFilesReview, WithheldRule } from '../project-files/trust'

/** A project's trust, and what its own files change once it is trusted (while trusted: what they change now). */
export interface ProjectTrustReport {
  project: Project
  review: ProjectFilesReview
}
