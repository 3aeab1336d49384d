import type { Project } from '../../../core/schema'
import type { OpenTarget } from '../../history/create-history-actions'
import type { SessionStore } from '../../store/create-session-store'

/** A session to open once the workbench of another project is up (a branch that got its own project). */
export interface Arrival {
  sessionID: string
  notice?: string
  prompt?: string
}

export interface SessionNotice {
  sessionID: string
  text: string
}

/**
 * Opens a session a history action points at (a fork, an origin). One in another project (a branch that got its own
 * copy of the files) means switching project first, the way the project picker does; that project's workbench then
 * opens the session, says the notice and fills the prompt, from the arrival.
 */
export function makeOpenTarget(deps: {
  projectID: string
  store: Pick<SessionStore, 'attempt' | 'drafts' | 'remember' | 'api'>
  switchProject: (project: Project, arrival: Arrival) => void
  open: (sessionID: string) => void
  setNotice: (notice: SessionNotice | undefined) => void
  focusPrompt: () => void
}): (target: OpenTarget) => Promise<void> {
  return async (target) => {
    const { session } = target
    const extras = { ...(target.notice ? { notice: target.notice } : {}), ...(target.prompt ? { prompt: target.prompt } : {}) }
    if (session.projectID !== deps.projectID) {
      const project = await deps.store.attempt('open the project', () => deps.store.api.openProject(session.projectID))
      if (project) deps.switchProject(project, { sessionID: session.id, ...extras })
      return
    }
    if (target.prompt) deps.store.drafts.fill(session.id, target.prompt)
    deps.setNotice(target.notice ? { sessionID: session.id, text: target.notice } : undefined)
    deps.store.remember(session)
    deps.open(session.id)
    // The menu that asked is gone with the old session: focus would fall to the page.
    deps.focusPrompt()
  }
}
