import { onCleanup } from 'solid-js'
import type { SessionEvent } from '../../core/event'
import type { ClientApi } from '../../core/protocol'
import type { SessionInfo } from '../../core/schema'
import { sessionTitle } from '../kit/format/time'
import { hashForSession } from '../kit/routing/session-location'
import { notificationAccess, showNotice } from './browser-notifications'
import { decideNotification } from './decide-notification'
import { createNotifyingTab } from './notifying-tab'
import { markedTitle, unmarkedTitle } from './title-mark'
import { EMPTY_TURN_MEMORY, watchTurns, type Happening } from './turn-watch'

export interface NotifierConnection {
  api: Pick<ClientApi, 'getSession' | 'getSettings'>
  listen: (handler: (event: SessionEvent) => void) => () => void
}

/** Subagents nest a few levels at most; the walk up stops here whatever the rows say. */
const MOST_LEVELS = 8

/**
 * Tells a user who is elsewhere what happened: while this tab is hidden, a turn that ended (how, in which session), a
 * question or permission ask that waits, an error that stopped a turn. Each such thing counts in the tab's title
 * ("(2) tabcode") until the tab is in view again, notifications on or off; and, when Settings → Notifications allows
 * that kind and the browser allows notifications, one tab of the app shows a notification (`notifying-tab.ts`)
 * whose click brings that tab forward with the session open. Owner-bound: it listens until its owner is disposed.
 */
export function createNotifier(connection: NotifierConnection): void {
  const { api } = connection
  const notifying = createNotifyingTab()
  let memory = EMPTY_TURN_MEMORY
  let unseen = 0

  const stopListening = connection.listen((event) => {
    const next = watchTurns(memory, event)
    memory = next.memory
    if (next.happening && document.visibilityState === 'hidden') void tell(next.happening)
  })

  const onVisibility = () => {
    if (document.visibilityState !== 'visible') return
    unseen = 0
    document.title = unmarkedTitle(document.title)
  }
  document.addEventListener('visibilitychange', onVisibility)

  onCleanup(() => {
    stopListening()
    notifying.dispose()
    document.removeEventListener('visibilitychange', onVisibility)
  })

  async function tell(happening: Happening): Promise<void> {
    const session = await api.getSession(happening.sessionID).catch(() => undefined)
    // A subagent's turn is a step of its parent's, which tells when it ends; its asks wait in the parent's view.
    if (!session || (session.parentID && happening.type === 'turn-ended')) return
    const shown = await topLevel(session)
    if (document.visibilityState !== 'hidden') return
    unseen += 1
    document.title = markedTitle(document.title, unseen)
    if (!(await notifying.mayNotify())) return
    const settings = await api.getSettings().catch(() => undefined)
    if (!settings) return
    const notice = decideNotification(happening, {
      visibility: document.visibilityState,
      settings: settings.notifications,
      permission: notificationAccess(),
      // A default title reads as the time the session was made, as in the sidebar.
      sessionTitle: sessionTitle(shown.title),
    })
    // Through the address, as Back and Forward go: the workbench opens the session, switching project if it must.
    if (notice) showNotice(notice, () => (window.location.hash = hashForSession(shown.id)))
  }

  async function topLevel(session: SessionInfo): Promise<SessionInfo> {
    let current = session
    for (let level = 0; current.parentID && level < MOST_LEVELS; level++) {
      const parent = await api.getSession(current.parentID).catch(() => undefined)
      if (!parent) break
      current = parent
    }
    return current
  }
}
