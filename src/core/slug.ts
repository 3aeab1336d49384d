const ADJECTIVES = [
  'amber', 'brave', 'calm', 'clever', 'crisp', 'eager', 'gentle', 'glad', 'golden', 'happy', 'keen', 'kind',
  'lucky', 'mellow', 'misty', 'nimble', 'proud', 'quiet', 'rapid', 'silver', 'steady', 'swift', 'tidy', 'witty',
]
const NOUNS = [
  'badger', 'comet', 'falcon', 'fern', 'harbor', 'heron', 'lantern', 'maple', 'meadow', 'otter', 'pebble', 'pine',
  'planet', 'river', 'rocket', 'sparrow', 'summit', 'tiger', 'voyager', 'willow', 'wizard', 'zephyr', 'orchid', 'canyon',
]

function pick<T>(items: readonly T[]): T {
  const index = crypto.getRandomValues(new Uint32Array(1))[0]! % items.length
  return items[index]!
}

/** A short human handle for a session (used later for plan file names), like opencode's adjective-noun slug. */
export function createSlug(): string {
  return `${pick(ADJECTIVES)}-${pick(NOUNS)}`
}
