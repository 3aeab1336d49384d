import { createSignal } from 'solid-js'
import type { PermissionAsk, PermissionReply } from '../../core/schema'
import { errorMessage } from '../kit/format/error'
import { useSessionStore } from '../store/session-store-context'

/** Sending the reply to an ask, for its dialog: one reply at a time, and a failure the dialog can show. */
export function createAskReply(ask: PermissionAsk) {
  const store = useSessionStore()
  const [problem, setProblem] = createSignal<string>()
  const [busy, setBusy] = createSignal(false)
  const send = async (reply: PermissionReply) => {
    setBusy(true)
    setProblem(undefined)
    try {
      await store.api.replyAsk({ askID: ask.id, reply })
      // The `permission.replied` event removes the ask; dropping it here too spares a frame of stale dialog.
      store.forgetAsk(ask.id)
    } catch (error) {
      setProblem(`Couldn't send the answer: ${errorMessage(error)}`)
    } finally {
      setBusy(false)
    }
  }
  return { busy, problem, setProblem, send }
}
