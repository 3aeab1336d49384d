import { createSignal } from 'solid-js'
import type { ModelReference } from '../../core/schema'

/** What the prompt box of one session holds before it is sent: the text and the choices made for it. */
export interface Draft {
  text: string
  /** Chosen in the picker; absent means "the session's model, else the default". */
  model?: ModelReference
  agent?: string
}

const EMPTY: Draft = Object.freeze({ text: '' })

/** A text put into a session's prompt box by the app (a revert gives back the reverted prompt). */
export interface PromptFill {
  sessionID: string
  text: string
}

/**
 * Drafts per session, in memory only: switching sessions and coming back finds the text as it was left. The drafts
 * are plain (the prompt box reads its draft once when it mounts and writes on every change); only `filled` is a
 * signal, for a prompt box already on screen to take text the app puts in.
 */
export function makeDraftStore() {
  const drafts = new Map<string, Draft>()
  const [filled, setFilled] = createSignal<PromptFill | undefined>(undefined, { equals: false })
  const update = (sessionID: string, change: Partial<Draft>): Draft => {
    const next = { ...(drafts.get(sessionID) ?? EMPTY), ...change }
    if (!next.text && !next.model && !next.agent) drafts.delete(sessionID)
    else drafts.set(sessionID, next)
    return next
  }
  return {
    get(sessionID: string): Draft {
      return drafts.get(sessionID) ?? EMPTY
    },
    update,
    forget(sessionID: string): void {
      drafts.delete(sessionID)
    },
    /** Replaces the draft's text; a prompt box showing that session takes it at once, one mounted later on mount. */
    fill(sessionID: string, text: string): void {
      update(sessionID, { text })
      setFilled({ sessionID, text })
    },
    filled,
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
