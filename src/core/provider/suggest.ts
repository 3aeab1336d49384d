/** Levenshtein distance, two rows at a time; ids are short, so this stays cheap even over a few hundred models. */
export function editDistance(left: string, right: string): number {
  if (left === right) return 0
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index)
  for (let row = 1; row <= left.length; row++) {
    const current = [row]
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1
      current[column] = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost)
    }
    previous = current
  }
  return previous[right.length]!
}

/**
 * The candidates that look like what was asked for ("Did you mean"): containment either way counts as close, and
 * so does an edit distance within about a third of the length. Best first, at most `limit`.
 */
export function closeMatches(wanted: string, candidates: readonly string[], limit = 3): string[] {
  const target = wanted.toLowerCase()
  const scored: { candidate: string; score: number }[] = []
  for (const candidate of new Set(candidates)) {
    const lower = candidate.toLowerCase()
    if (lower === target) continue
    const distance = editDistance(target, lower)
    const contains = lower.includes(target) || target.includes(lower)
    const threshold = Math.max(2, Math.floor(Math.max(target.length, lower.length) / 3))
    if (!contains && distance > threshold) continue
    // A contained id is as close as half its extra length ("gpt-4o" → "gpt-4o-mini"), but a one-letter typo wins.
    const score = contains ? Math.min(distance, Math.abs(lower.length - target.length) / 2) : distance
    scored.push({ candidate, score })
  }
  return scored
    .sort((left, right) => left.score - right.score || left.candidate.localeCompare(right.candidate))
    .slice(0, limit)
    .map((entry) => entry.candidate)
}
