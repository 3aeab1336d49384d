/**
 * The dates a session's requests carry, kept stable so the provider's prompt cache keeps hitting (opencode 2's
 * context epochs): the system prompt names the day the history it is sent with began (its first prompt, or the
 * compaction that started it), and a later prompt made on a later day carries a note with the new date. Both come
 * from the stored times alone, so every request of a session renders its earlier prompts the same bytes.
 */

/** A local calendar day as a number that orders days: its midnight, local time. */
export function localDay(time: number): number {
  return new Date(time).setHours(0, 0, 0, 0)
}

/** The line the system prompt's environment block and the day-change note show a date with. */
export const dateText = (time: number) => new Date(time).toDateString()

/** What a prompt made on a later day than the history's start carries (opencode 2's words for a date update). */
export const dateChangedNote = (time: number) => `<system-reminder>\nToday's date is now: ${dateText(time)}\n</system-reminder>`

export interface ContextDates {
  /** When the history began: the time the system prompt takes its date from (absent: no prompt yet). */
  baseline?: number
  /** The prompts that are the first of a later day, by message id, with their note. */
  notes: Map<string, string>
}

/**
 * The baseline and the notes of a history in the order it is sent. A prompt is noted only when its day is later than
 * every day the model was told before it, so a compaction's kept tail (older prompts sent after the newer marker)
 * adds none.
 */
export function contextDates(history: readonly { info: { id: string; role: string; time: { created: number } } }[]): ContextDates {
  const notes = new Map<string, string>()
  let baseline: number | undefined
  let known = -Infinity
  for (const { info } of history) {
    if (info.role !== 'user') continue
    const day = localDay(info.time.created)
    if (baseline === undefined) {
      baseline = info.time.created
      known = day
    } else if (day > known) {
      notes.set(info.id, dateChangedNote(info.time.created))
      known = day
    }
  }
  return { ...(baseline !== undefined ? { baseline } : {}), notes }
}
