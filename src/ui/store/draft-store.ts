import type { ModelReference } from '../../session/schema'

/** What the prompt box of one session holds before it is sent: the text and the choices made for it. */
export interface Draft {
  text: string
  /** Chosen in the picker; absent means "the session's model, else the default". */
  model?: ModelReference
  agent?: string
}

const EMPTY: Draft = Object.freeze({ text: '' })

/**
 * Drafts per session, in memory only: switching sessions and coming back finds the text as it was left. Plain (not
 * reactive): the prompt box reads its draft once when it mounts and writes on every change.
 */
export function makeDraftStore() {
  const drafts = new Map<string, Draft>()
  return {
    get(sessionID: string): Draft {
      return drafts.get(sessionID) ?? EMPTY
    },
    update(sessionID: string, change: Partial<Draft>): Draft {
      const next = { ...(drafts.get(sessionID) ?? EMPTY), ...change }
      if (!next.text && !next.model && !next.agent) drafts.delete(sessionID)
      else drafts.set(sessionID, next)
      return next
    },
    forget(sessionID: string): void {
      drafts.delete(sessionID)
    },
  }
}
export type DraftStore = ReturnType<typeof makeDraftStore>

/**
 * The text left in the box once a prompt was stored. The user may have kept typing while it was being sent: what
 * they added stays, only what was sent goes. If they rewrote it, nothing is taken away.
 */
export function textAfterSend(current: string, sent: string): string {
  if (current === sent) return ''
  if (current.startsWith(sent)) return current.slice(sent.length).replace(/^\s+/, '')
  return current
}
