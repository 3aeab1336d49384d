import { textAfterSend } from '../store/draft-store'

/** One prompt on its way: its text when that came from the box (it leaves the box once stored), and its files. */
export interface OutboxEntry<File> {
  text: string | undefined
  files: readonly File[]
}

/**
 * Prompts sent but not stored yet, oldest first. Storing takes a moment (tens of milliseconds): a prompt sent
 * meanwhile is the text the box holds beyond theirs, and is stored once they are, in order. If one fails, those
 * after it are not stored: their text stays in the box with its own. `onIdle` is called when none is on its way.
 */
export function createPromptOutbox<File>(onIdle: () => void) {
  const entries: OutboxEntry<File>[] = []
  // Whether the newest entry was stored: the next one waits for it.
  let last: Promise<boolean> = Promise.resolve(true)
  return {
    /** What `box` holds beyond the texts of the prompts on their way. */
    beyond(box: string): string {
      return entries.reduce((rest, earlier) => (earlier.text === undefined ? rest : textAfterSend(rest, earlier.text)), box)
    },
    /** The files the prompts on their way took. */
    taken(): Set<File> {
      return new Set(entries.flatMap((entry) => entry.files))
    },
    /**
     * Runs `store` for `entry` once every earlier entry was stored, and says whether it was; when an earlier one
     * failed, `store` is not run and the answer is false.
     */
    async send(entry: OutboxEntry<File>, store: () => Promise<boolean>): Promise<boolean> {
      entries.push(entry)
      const before = last
      const storing = (async () => {
        try {
          return (await before) && (await store())
        } finally {
          entries.splice(entries.indexOf(entry), 1)
          if (entries.length === 0) {
            // Nothing waits behind a failure any more: the next prompt goes on its own.
            last = Promise.resolve(true)
            onIdle()
          }
        }
      })()
      last = storing
      return storing
    },
  }
}
