// Rows for `api.writeFixture` and the texts the mock model streams, built in Node (a production build has no TS
// sources to import). Valid per src/core/schema: writeFixture validates every row with zod.
import { randomInt } from 'node:crypto'

// Id layout of src/core/id.ts: 12 hex digits of ms + 4 hex counter + 10 base62; descending ids complement the hex.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const stamp = (time) => time.toString(16).padStart(12, '0') + '0000'
const tail = () => Array.from({ length: 10 }, () => BASE62[randomInt(62)]).join('')
export const ascendingId = (prefix, time) => `${prefix}_${stamp(time)}${tail()}`
const complement = (hex) => [...hex].map((d) => (15 - parseInt(d, 16)).toString(16)).join('')
const descendingId = (prefix, time) => `${prefix}_${complement(stamp(time))}${tail()}`
const emptyTokens = () => ({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } })

// Word salad from a seeded PRNG (Park-Miller): compresses roughly like prose, as the IndexedDB backing store
// compresses; 'x'.repeat(1024) would flatter it.
const WORDS = 'the a function returns value file test error build worker session message part index query store'.split(' ')
let prng = 42
const word = () => WORDS[(prng = (prng * 48_271) % 2_147_483_647) % WORDS.length]
function text(i, k) {
  let out = `Message ${i}, part ${k}:`
  while (out.length < 1024) out += ' ' + word()
  return out
}

/** What the page shows once message `i` of a seeded session is on screen (unique among `Message …` texts). */
export const messageMarker = (i) => `Message ${i}, part 2:`

/** Messages from..from+count of one session: user/assistant alternating, 5 s apart, 2 text parts each, ids ascending. */
export function messageChunk(sessionID, from, count, start, state) {
  const messages = []
  const parts = []
  for (let i = from; i < from + count; i++) {
    const t = start + i * 5_000
    const id = ascendingId('msg', t)
    const base = { id, sessionID, agent: 'build' }
    if (i % 2 === 0) {
      messages.push({ ...base, role: 'user', time: { created: t }, model: { providerID: 'openai', modelID: 'gpt-bench' } })
      state.lastUser = id
    } else {
      messages.push({
        ...base, role: 'assistant', time: { created: t, completed: t + 3 }, parentID: state.lastUser, mode: 'build',
        modelID: 'gpt-bench', providerID: 'openai', path: { cwd: '/workspace', root: '/workspace' },
        cost: 0, tokens: emptyTokens(), finish: 'stop',
      })
    }
    // Parts take the next two milliseconds, so their ids sort after their message's.
    for (const k of [1, 2]) {
      parts.push({ id: ascendingId('prt', t + k), sessionID, messageID: id, type: 'text', text: text(i, k) })
    }
    state.lastMessage = id
  }
  return { sessions: [], messages, parts }
}

/** One root session row. A title that is not the default one keeps the loop from asking a model for a title. */
export const sessionRow = (projectID, version, title, updated) => ({
  id: descendingId('ses', updated), slug: title.toLowerCase().replace(/\W+/g, '-'), projectID, directory: '/workspace',
  title, version, cost: 0, tokens: emptyTokens(), time: { created: updated, updated },
})

/** `count` root sessions of one project, one minute apart (distinct `time.updated`), all older than `before`; oldest first. */
export const sessionRows = (projectID, version, before, count) =>
  Array.from({ length: count }, (_, i) => {
    const updated = before - (count - i) * 60_000
    return { ...sessionRow(projectID, version, `Bench session ${i}`, updated - 1_000), slug: `bench-${i}`, time: { created: updated - 1_000, updated } }
  })

/**
 * A session of `count` seeded messages, as writeFixture chunks of at most `chunk` messages; the session row goes in
 * the first chunk. `lastIndex` is the newest message's index (its text is `messageMarker(lastIndex)`).
 */
export function seededSession(projectID, version, title, count, chunk) {
  const now = Date.now()
  const session = sessionRow(projectID, version, title, now - 60_000)
  const start = now - 3_600_000 - count * 5_000
  const state = {}
  const chunks = []
  for (let from = 0; from < count; from += chunk) {
    chunks.push(messageChunk(session.id, from, Math.min(chunk, count - from), start, state))
  }
  chunks[0].sessions = [session]
  return { session, chunks, lastIndex: count - 1 }
}

// The prose-and-markdown of e2e/testing/model-script.ts `longText` (the helper the e2e streaming tests use), copied
// because Node cannot import the TS file: paragraphs and lists, so the UI's markdown sees blocks open and close.
const PROSE =
  'The parser walks the token list once, keeping a stack of open blocks. ' +
  'Each line either extends the current block or closes it.\n\n' +
  '- lists nest by indentation\n- code fences stay verbatim\n\n'

// Prose with a TypeScript block after every few paragraphs: the chat highlights each block once its fence closes, and
// that must stay off the frames that paint the stream (issue 17).
const CODE_BLOCK =
  '```ts\n' +
  'export function lex(source: string): Token[] {\n' +
  '  const tokens: Token[] = [] // in source order\n' +
  '  for (let at = 0; at < source.length; at += 1) {\n' +
  "    if (source[at] === ' ') tokens.push({ kind: 'space', at })\n" +
  '    else tokens.push({ kind: "char", at, text: source[at]! })\n' +
  '  }\n' +
  '  return tokens\n' +
  '}\n' +
  '```\n\n'
const PROSE_WITH_CODE = PROSE.repeat(3) + CODE_BLOCK

/**
 * With `code`, the reply has a TypeScript code block every few paragraphs.
 * A reply of exactly `deltas` deltas of `size` characters that ends with a marker unique to this run (so the bench
 * can tell that the UI shows this reply, not an earlier one). Its length is a multiple of `size`.
 */
export function replyText(deltas, size, tag, { code = false } = {}) {
  const end = `\n\nEnd of bench reply ${tag}.`
  const total = deltas * size
  const unit = code ? PROSE_WITH_CODE : PROSE
  const body = unit.repeat(Math.ceil(total / unit.length)).slice(0, total - end.length)
  return { text: body + end, marker: `End of bench reply ${tag}.` }
}
