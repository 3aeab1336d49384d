/** A session whose title or message text holds every word of the query; `messageID` when the text matched. */
export interface SearchHit {
  sessionID: string
  title: string
  messageID?: string
  /** The matching text around the first word found, on one line. */
  snippet: string
  /** Where the first word starts within the snippet, and its length, for highlighting. */
  match: { start: number; length: number }
  time: number
}
