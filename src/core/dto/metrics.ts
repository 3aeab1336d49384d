/**
 * Counters the benchmark reads: how many deltas went out and how many commits (and when) reached storage. `deltas`
 * counts the deltas the processor handled, after a network read's runs were merged (stream-coalescing.ts);
 * `characters` is what they carried, which is what tells how many deltas the model sent.
 */
export interface WriterMetrics {
  deltas: number
  characters: number
  commits: number
  lastDeltaAt: number
  lastCommitAt: number
}
