import type { AssistantMessage, Part } from '../core/schema'
import type { RecentHistory } from '../store/recent-history'

/**
 * A turn's history kept in memory between its steps: the last read, with the replies the loop stored since then
 * appended as storage holds them, so a step that goes on from the one before does not read the history again
 * (issue 32: that read, growing with the turn, was a transaction and most of a step's storage time).
 * `after` is the newest message of the read (by `[time.created, id]`) and `known` the replies appended since: the
 * next reply is stored only if the session holds nothing else newer (`openReply`'s `since`), so a prompt another
 * tab (or this one) stored meanwhile makes the step read afresh and answer it, as before.
 */
export interface KeptHistory {
  recent: RecentHistory
  after: readonly [number, string]
  known: readonly string[]
}

/** What a fresh read starts: nothing appended yet. Undefined for an empty history. */
export function keptFrom(recent: RecentHistory): KeptHistory | undefined {
  let newest: readonly [number, string] | undefined
  for (const { info } of recent.history) {
    if (!newest || info.time.created > newest[0] || (info.time.created === newest[0] && info.id > newest[1])) newest = [info.time.created, info.id]
  }
  return newest && { recent, after: newest, known: [] }
}

/**
 * The kept history with a step's reply appended, as a read would order it: after its prompt and that prompt's
 * other replies. Undefined when it would not go last (anything but the prompt's replies follows the prompt): the
 * next step then reads.
 */
export function withReply(kept: KeptHistory, info: AssistantMessage, parts: readonly Part[]): KeptHistory | undefined {
  const { history } = kept.recent
  const parent = history.findIndex((entry) => entry.info.id === info.parentID)
  if (parent < 0) return undefined
  for (const { info: later } of history.slice(parent + 1)) if (later.role !== 'assistant' || later.parentID !== info.parentID) return undefined
  const sorted = [...parts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return {
    recent: { ...kept.recent, history: [...history, { info: structuredClone(info), parts: sorted }] },
    after: kept.after,
    known: [...kept.known, info.id],
  }
}
