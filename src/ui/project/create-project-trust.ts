import { createContext, createSignal, onCleanup, type Accessor } from 'solid-js'
import type { SessionEvent } from '../../core/event'
import type { ClientApi, ProjectTrustReport } from '../../core/protocol'
import { reviewedRule } from '../../core/project-files/reviewed-rules'
import type { WithheldRule } from '../../core/project-files/trust'
import { afterFirstFrame } from '../kit/load/after-first-frame'
import type { Project } from '../../core/schema'
import { log } from '../../core/log'
import { createNewestAnswer } from '../kit/load/newest-answer'

export type ProjectTrustApi = Pick<ClientApi, 'projectTrust' | 'setProjectTrust'>

/** The open project's trust, as every view that shows it reads it. */
export interface ProjectTrustStore {
  projectID: string
  name: string
  trusted: Accessor<boolean>
  /** The review of its files; undefined until the worker answered. */
  report: Accessor<ProjectTrustReport | undefined>
  /** How many of its files' rules wait for trust (none once trusted). */
  withheld: Accessor<number>
  /** Trusted: the allow rules written into its files that the user has not seen yet (none while untrusted). */
  unreviewed: Accessor<WithheldRule[]>
  refresh(): Promise<void>
  /**
   * Trusts the project (or, trusted, lets more of its rules apply) or stops trusting it; `shown` are the rules the
   * user was shown, the only ones that then apply. Throws the worker's error for the dialog to show.
   */
  setTrusted(trusted: boolean, shown?: readonly WithheldRule[]): Promise<void>
}

/** A change under `.opencode/` may add, remove or change the rules trust decides about. */
const touchesProjectFiles = (path: string) => /(^|\/)\.opencode(\/|$)/.test(path)

/**
 * The project's trust, kept fresh: from another tab (`project.updated`) and from edits to its `.opencode` files
 * (the counts of withheld and unreviewed rules follow them: the agent's own tools may write them). Owner-bound.
 */
export function createProjectTrust(
  api: ProjectTrustApi,
  project: Project,
  listen?: (handler: (event: SessionEvent) => void) => () => void,
  /** When a trusted project's files are first read (after the first frame); returns a cancel. */
  schedule: (run: () => void) => () => void = afterFirstFrame,
): ProjectTrustStore {
  const [trusted, setTrustedState] = createSignal(project.trust.type === 'trusted')
  const [report, setReport] = createSignal<ProjectTrustReport>()
  const newest = createNewestAnswer()

  const refresh = () =>
    newest.load(() => api.projectTrust({ projectID: project.id }), {
      answer: (next) => {
        setReport(next)
        setTrustedState(next.project.trust.type === 'trusted')
      },
      failure: (error) => log.warn('tabcode: could not read the project’s trust', error),
    })
  // A trusted project (the user's own, most of the time) is read after the first frame: the first screen reads no
  // project files for it, and rules written while the app was closed are still counted.
  if (!trusted()) void refresh()
  else onCleanup(schedule(() => void refresh()))
  if (listen) {
    onCleanup(
      listen((event) => {
        if (event.type === 'project.updated' && event.info.id === project.id) {
          setTrustedState(event.info.trust.type === 'trusted')
          void refresh()
        }
        if (event.type === 'workspace.changed' && event.projectID === project.id && touchesProjectFiles(event.change.path)) void refresh()
      }),
    )
  }

  return {
    projectID: project.id,
    name: project.name,
    trusted,
    report,
    withheld: () => (trusted() ? 0 : (report()?.review.rules.length ?? 0)),
    unreviewed: () => (trusted() ? (report()?.unreviewed ?? []) : []),
    refresh,
    async setTrusted(next, shown = []) {
      const reviewed = next ? shown.flatMap((rule) => reviewedRule(rule) ?? []) : []
      const updated = await api.setProjectTrust({ projectID: project.id, trusted: next, reviewed })
      setTrustedState(updated.trust.type === 'trusted')
      await refresh()
    },
  }
}

/** The open project's trust, for views below the workbench (the session header marks an untrusted project). */
export const ProjectTrustContext = createContext<ProjectTrustStore>()
