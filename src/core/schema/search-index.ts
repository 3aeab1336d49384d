import { z } from 'zod'

/**
 * One row of the word index behind search: the words of one final text part (a `multiEntry` index on `words`
 * finds the parts holding a word, newest part first). Rebuilt from the part whenever the part is written, so it is
 * never the only copy of anything.
 */
export const SearchIndexRowSchema = z.object({
  partID: z.string(),
  sessionID: z.string(),
  words: z.array(z.string()),
})
export type SearchIndexRow = z.infer<typeof SearchIndexRowSchema>

/**
 * Where the background backfill of a database upgraded from before the index has got to: every part whose id is at
 * or above `below` is indexed; below it, search still scans. No row: everything is indexed.
 */
export const SearchBackfillSchema = z.object({ key: z.literal('backfill'), below: z.string() })
export type SearchBackfill = z.infer<typeof SearchBackfillSchema>
