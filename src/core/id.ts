/**
 * Prefixed, time-ordered identifiers.
 *
 * Layout after the prefix: 12 hex digits of the millisecond timestamp (full width, so string order never wraps
 * the way opencode's 48-bit `ms * 0x1000` encoding does after ~795 days), 4 hex digits of a per-millisecond
 * counter (65,536 ids per ms stay ordered; past that we borrow the next millisecond), and 10 random base62
 * characters. Ascending ids sort in creation order; descending ids complement every hex digit so that the
 * newest sorts first (used for sessions, whose natural listing is newest first).
 */

export const ID_PREFIXES = {
  project: 'prj',
  session: 'ses',
  message: 'msg',
  part: 'prt',
  permission: 'per',
  tool: 'tool',
  provider: 'prv',
  input: 'inp',
  snapshot: 'snp',
  approval: 'apr',
} as const

export type IdKind = keyof typeof ID_PREFIXES

const TIME_DIGITS = 12
const COUNTER_DIGITS = 4
const RANDOM_LENGTH = 10
const COUNTER_LIMIT = 16 ** COUNTER_DIGITS
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export type Clock = () => number

interface Generator {
  lastTime: number
  counter: number
}

function randomTail(): string {
  const bytes = new Uint8Array(RANDOM_LENGTH)
  crypto.getRandomValues(bytes)
  let tail = ''
  for (const byte of bytes) tail += BASE62[byte % 62]
  return tail
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0')
}

function complementHex(text: string): string {
  let out = ''
  for (const char of text) out += (15 - parseInt(char, 16)).toString(16)
  return out
}

function nextStamp(generator: Generator, now: number): { time: number; counter: number } {
  // A clock that steps backwards (NTP, a test clock) must not reorder ids: keep using the last time.
  const time = Math.max(now, generator.lastTime)
  if (time !== generator.lastTime) {
    generator.lastTime = time
    generator.counter = 0
  } else {
    generator.counter += 1
    if (generator.counter >= COUNTER_LIMIT) {
      generator.lastTime = time + 1
      generator.counter = 0
    }
  }
  return { time: generator.lastTime, counter: generator.counter }
}

export interface IdOptions {
  descending?: boolean
  now?: number
}

/** An id source with its own clock memory; the app shares one (below), tests may make their own. */
export function makeIdGenerator() {
  const generator: Generator = { lastTime: 0, counter: 0 }
  const create = (kind: IdKind, options: IdOptions = {}): string => {
    const { time, counter } = nextStamp(generator, options.now ?? Date.now())
    let stamp = hex(time, TIME_DIGITS) + hex(counter, COUNTER_DIGITS)
    if (options.descending) stamp = complementHex(stamp)
    return `${ID_PREFIXES[kind]}_${stamp}${randomTail()}`
  }
  return {
    create,
    ascending: (kind: IdKind, now?: number) => create(kind, { now }),
    descending: (kind: IdKind, now?: number) => create(kind, { descending: true, now }),
  }
}

const shared = makeIdGenerator()
export const createId = shared.create
export const ascending = shared.ascending
export const descending = shared.descending

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(ID_PREFIXES[kind] + '_')
}

const ID_BODY_LENGTH = TIME_DIGITS + COUNTER_DIGITS + RANDOM_LENGTH

/** The creation time encoded in an id, ascending or descending. */
export function timestampOf(id: string, options: { descending?: boolean } = {}): number {
  const body = id.slice(id.indexOf('_') + 1)
  if (body.length !== ID_BODY_LENGTH) throw new Error(`Not a tabcode id: ${id}`)
  const digits = body.slice(0, TIME_DIGITS)
  return parseInt(options.descending ? complementHex(digits) : digits, 16)
}

export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-f]{${TIME_DIGITS + COUNTER_DIGITS}}[0-9A-Za-z]{${RANDOM_LENGTH}}$`)
}
