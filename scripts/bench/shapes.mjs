// Issue 32: sessions seeded the way opencode writes them, for the 1-step turn of `steps.mjs` (each costs a step what
// the 2-message session does, or it is a miss). Rows for `api.writeFixture`, valid per src/core/schema.
import { ascendingId, sessionRow } from './rows.mjs'

const CHUNK = 5_000 // messages per writeFixture call
const emptyTokens = () => ({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } })
const model = { providerID: 'openai', modelID: 'gpt-bench' }
export const said = (i) => `Seeded message ${i}: the parser walks the token list once, keeping a stack of open blocks as it goes.`

/** A session's rows as opencode's loop writes them, ten milliseconds apart; `user` and `assistant` add one message. */
function writer(session, count) {
  let t = Date.now() - 3_600_000 - count * 10
  const messages = []
  const parts = []
  let lastUser
  const user = (part) => {
    const id = ascendingId('msg', (t += 10))
    messages.push({ id, sessionID: session.id, role: 'user', time: { created: t }, agent: 'build', model })
    parts.push({ id: ascendingId('prt', t + 1), sessionID: session.id, messageID: id, ...part })
    return (lastUser = id)
  }
  const assistant = (extra, ...body) => {
    const id = ascendingId('msg', (t += 10))
    messages.push({
      id, sessionID: session.id, role: 'assistant', time: { created: t, completed: t + 5 }, parentID: lastUser, agent: 'build', mode: 'build',
      modelID: model.modelID, providerID: model.providerID, path: { cwd: '/workspace', root: '/workspace' }, cost: 0, tokens: emptyTokens(),
      finish: 'stop', ...extra,
    })
    body.forEach((part, k) => parts.push({ id: ascendingId('prt', t + 1 + k), sessionID: session.id, messageID: id, ...part }))
    return id
  }
  const toolCall = (tool, index, input, output, metadata = {}) => ({
    type: 'tool', callID: `call_${index}`, tool, state: { status: 'completed', input, output, title: tool, metadata, time: { start: t, end: t + 1 } },
  })
  return { session, messages, parts, user, assistant, toolCall }
}

/** An automatic compaction as opencode leaves it: the marker keeping `tail` verbatim, its summary, the "continue". */
function compaction(w, tail, { overflow = false } = {}) {
  w.user({ type: 'compaction', auto: true, ...(overflow ? { overflow: true } : {}), tail_start_id: tail })
  w.assistant({ summary: true, agent: 'compaction', mode: 'compaction' }, { type: 'text', text: 'Summary: the work so far, and what is left.' })
  w.user({ type: 'text', text: 'Continue if you have next steps', synthetic: true, metadata: { compaction_continue: true } })
}

/**
 * A session as opencode leaves one that compacted in a loop (issue 32: a real export of 1,639 messages held 2 typed
 * prompts among 656 user messages): a typed prompt, then rounds of a reply with a tool call, an automatic compaction
 * keeping that reply as its tail, its summary and the synthetic "continue", and a typed prompt halfway.
 */
export function compactionLoopSession(projectID, version, count) {
  const w = writer(sessionRow(projectID, version, `Bench compaction loop ${count}`, Date.now() - 60_000), count)
  const rounds = Math.floor((count - 3) / 4)
  w.user({ type: 'text', text: said(0) })
  for (let round = 0; round < rounds; round++) {
    if (round === Math.floor(rounds / 2)) w.user({ type: 'text', text: said(round) })
    const reply = w.assistant({ finish: 'tool-calls' }, w.toolCall('read', round, { filePath: 'src/app.ts' }, said(round).repeat(20)))
    compaction(w, reply)
  }
  const newest = 'Carried on after the last automatic compaction.'
  w.assistant({}, { type: 'text', text: newest })
  return inChunks(w, newest)
}

/**
 * One turn of `steps` tool calls, each step its own assistant message as opencode writes them, after two short turns:
 * the turn overflowed near its end and compacted (the marker keeps its newest three steps; with no earlier real prompt
 * left to replay, opencode carries on with a "continue"), then a few more steps and the answer.
 */
export function longTurnSession(projectID, version, steps) {
  const w = writer(sessionRow(projectID, version, `Bench long turn ${steps}`, Date.now() - 60_000), steps + 20)
  for (let turn = 0; turn < 2; turn++) {
    w.user({ type: 'text', text: said(turn) })
    w.assistant({}, { type: 'text', text: said(turn + 1) })
  }
  w.user({ type: 'text', text: 'Refactor every module of the parser.' })
  let tail
  for (let step = 0; step < steps; step++) {
    const reply = w.assistant({ finish: 'tool-calls' }, w.toolCall('read', step, { filePath: `src/module-${step % 97}.ts` }, said(step)))
    if (step === steps - 3) tail = reply
  }
  compaction(w, tail, { overflow: true })
  for (let step = 0; step < 3; step++) w.assistant({ finish: 'tool-calls' }, w.toolCall('read', steps + step, { filePath: 'src/app.ts' }, said(step)))
  const newest = 'Every module of the parser is refactored.'
  w.assistant({}, { type: 'text', text: newest })
  return inChunks(w, newest)
}

/**
 * A parent whose turn ran the task tool `children` times: each call a step of its own with a completed task part, each
 * child session (parentID) holding a prompt, two tool-call steps and an answer; then the parent compacted, as a
 * regular long session ends (the marker keeping the answer, its summary, the "continue" and the reply to it).
 */
export function subagentSession(projectID, version, children) {
  const now = Date.now()
  const parent = sessionRow(projectID, version, `Bench subagents ${children}`, now - 60_000)
  const w = writer(parent, children * 6)
  const childRows = { sessions: [], messages: [], parts: [] }
  w.user({ type: 'text', text: 'Split the review into subtasks, one per module.' })
  for (let index = 0; index < children; index++) {
    const child = { ...sessionRow(projectID, version, `Subtask ${index}`, now - 120_000 + index), parentID: parent.id }
    const c = writer(child, 4)
    c.user({ type: 'text', text: `Review module ${index}.` })
    c.assistant({ finish: 'tool-calls' }, c.toolCall('read', 0, { filePath: `src/module-${index}.ts` }, said(index)))
    c.assistant({ finish: 'tool-calls' }, c.toolCall('grep', 1, { pattern: 'TODO' }, said(index + 1)))
    c.assistant({}, { type: 'text', text: `Module ${index} is fine.` })
    childRows.sessions.push(child)
    childRows.messages.push(...c.messages)
    childRows.parts.push(...c.parts)
    w.assistant({ finish: 'tool-calls' }, w.toolCall('task', index, { description: `Review module ${index}`, prompt: `Review module ${index}.`, subagent_type: 'general' }, `<task id="${child.id}" state="completed">\n<task_result>\nModule ${index} is fine.\n</task_result>\n</task>`, { sessionId: child.id, parentSessionId: parent.id }))
  }
  const answer = w.assistant({}, { type: 'text', text: 'Every module was reviewed.' })
  compaction(w, answer)
  const newest = 'Carried on after the review.'
  w.assistant({}, { type: 'text', text: newest })
  const seeded = inChunks(w, newest)
  seeded.chunks.push({ sessions: childRows.sessions, messages: childRows.messages, parts: childRows.parts })
  return seeded
}

/**
 * The compaction loop as an import from opencode stores it (`share/import.ts`): the export's times kept, every id
 * minted again at the import's time in the export's order (the same millisecond, a counter apart).
 */
export function importedSession(projectID, version, count) {
  const loop = compactionLoopSession(projectID, version, count)
  const at = Date.now() - 30_000
  let counter = 0
  const minted = new Map()
  const mint = (prefix, old) => {
    const n = counter++
    const id = ascendingId(prefix, at + Math.floor(n / 65_536)).replace(/^([a-z]+_[0-9a-f]{12})0000/, (_, head) => head + (n % 65_536).toString(16).padStart(4, '0'))
    minted.set(old, id)
    return id
  }
  const messages = loop.chunks.flatMap((chunk) => chunk.messages)
  const parts = loop.chunks.flatMap((chunk) => chunk.parts)
  for (const message of messages) mint('msg', message.id)
  for (const part of parts) mint('prt', part.id)
  const w = { session: { ...loop.session, title: `Bench imported ${count}` }, messages: [], parts: [] }
  for (const message of messages) w.messages.push({ ...message, id: minted.get(message.id), ...(message.parentID ? { parentID: minted.get(message.parentID) } : {}) })
  for (const part of parts) {
    w.parts.push({ ...part, id: minted.get(part.id), messageID: minted.get(part.messageID), ...(part.tail_start_id ? { tail_start_id: minted.get(part.tail_start_id) } : {}) })
  }
  return inChunks(w, loop.newest)
}

/** A session's rows as writeFixture chunks of CHUNK messages, the session row in the first. */
export function inChunks({ session, messages, parts }, newest) {
  const chunks = []
  for (let from = 0; from < messages.length; from += CHUNK) {
    const ids = new Set(messages.slice(from, from + CHUNK).map((m) => m.id))
    chunks.push({ sessions: [], messages: messages.slice(from, from + CHUNK), parts: parts.filter((p) => ids.has(p.messageID)) })
  }
  chunks[0].sessions = [session]
  return { session, chunks, newest }
}
