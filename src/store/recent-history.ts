import { KEY } from './database'
import type { StoreContext } from './context'
import type { Message, Part } from '../core/schema'
import { inTurnOrder, type MessageWithParts } from '../core/history'
import { messagesOf } from './session-store'
import { read } from './transaction'
import { partsOfMessages } from './message-parts'
import { compactionOf, isCompletedSummary, isFollowUp, isRealUser, replayIndex } from '../core/compaction/markers'
import { visibleHistory } from '../core/compaction/filter'

/** Messages read by the first step of the walk back from the newest; each next step reads twice as many. */
const WALK_BATCH = 16

/**
 * Prompts kept before the boundary's tail, counted as each rule that looks back from a kept message counts them, so
 * that it finds there what it would find in the whole session:
 * - an overflow marker's replay (`replayIndex`) wants the newest prompt before the marker and one more; a prompt is
 *   any user message but a marker, a compaction's "continue" or replay included, except the follow-up of an undone
 *   compaction, which the history filter drops before it looks;
 * - the title check (`firstRealUserMessage`) must see more than one user message that is not all synthetic text
 *   (markers count, "continue" messages do not).
 * Two of each. Counting only typed prompts (as this did before) walked a session that compacted in a loop, with a
 * typed prompt at its start and hundreds of automatic "continue" messages after, back to its first message on every
 * step (issue 32).
 */
const PROMPTS_BEFORE = 2

/**
 * Messages walked one by one past the kept tail's start while looking for those prompts; past them the walk reads
 * only user messages (`[sessionID+role+time.created+id]`). A turn that compacted in its middle has its prompt before
 * thousands of replies (opencode writes each step as its own message): no rule looks at a reply before the tail's
 * start, so reading them made a step cost what the turn had cost (issue 32).
 */
const PAST_START = 16

export interface RecentHistory {
  /** Oldest first, each reply in its prompt's turn, as `loadHistory` orders it. */
  history: MessageWithParts[]
  /** It starts at the session's first message: there was no compaction to start from, or the read fell back. */
  whole: boolean
  /**
   * The replies between this message and the prompt before it were left out: before it the walk read user messages
   * only (see PAST_START). Work that walks the replies back further (the prune, a turn's diffs) reads them itself.
   */
  skippedBefore?: string
}

/**
 * The history a step decides from, read from the last compaction boundary instead of the session's start, so a step
 * costs what the tail costs. The boundary is the newest compaction that stands (not undone, its summary completed):
 * everything before its kept tail (`tail_start_id`) is what `filterCompacted` leaves out of every request. The walk
 * goes back through the `[sessionID+time.created+id]` index newest first (message rows only, in doubling batches),
 * reading the parts of a prompt only where it must tell a marker or a follow-up, then past the tail's start by
 * PROMPTS_BEFORE prompts, then reads the parts of what it kept by `messageID`: no part before the start is read. Past a
 * long run of replies that no rule looks at (PAST_START: before the tail's start, or the attempt an overflow marker's
 * replay drops) it reads user messages only, through the role index, and says so (`skippedBefore`). A reply whose
 * prompt lies before the start (it would be re-ordered across it) makes it read the whole session instead, so what it
 * returns always gives the same request, turn rules and title check as the whole history.
 */
export async function loadRecentHistory(context: StoreContext, sessionID: string): Promise<RecentHistory> {
  const { db } = context
  return read(context, [db.messages, db.parts], async () => {
    // Newest first; the parts of the prompts looked at.
    const walked: Message[] = []
    const promptParts = new Map<string, Part[]>()
    let upper: [string, number, string] = [sessionID, KEY.timeMax, KEY.idMax]
    let exhausted = false
    // Doubling: a short tail costs one or two small reads, a session with no boundary about a dozen.
    let batchSize = WALK_BATCH
    // Whether the walk reads user messages only, now; and the newest message walked before it first did.
    let promptsOnly = false
    let skippedBefore: string | undefined
    // At most `cap` messages this time (the batch does not grow then).
    const more = async (cap = Infinity): Promise<boolean> => {
      if (exhausted) return false
      const [, time, id] = upper
      const size = Math.min(batchSize, cap)
      const batch = await (promptsOnly
        ? db.messages.where('[sessionID+role+time.created+id]').between([sessionID, 'user', KEY.timeMin, KEY.idMin], [sessionID, 'user', time, id], true, false)
        : db.messages.where('[sessionID+time.created+id]').between([sessionID, KEY.timeMin, KEY.idMin], upper, true, false)
      )
        .reverse()
        .limit(size)
        .toArray()
      if (batch.length < size) exhausted = true
      if (size === batchSize) batchSize *= 2
      const last = batch.at(-1)
      if (last) upper = [sessionID, last.time.created, last.id]
      walked.push(...batch)
      return batch.length > 0
    }
    // From the walked message at `index` on, user messages only: the walk forgets what it read from there.
    const promptsOnlyFrom = (index: number) => {
      const newest = walked[index - 1]!
      skippedBefore ??= newest.id
      walkFrom(index - 1, true)
    }
    // Past the walked message at `index`, every message again (or prompts only): what was read past it is forgotten.
    const walkFrom = (index: number, prompts: boolean) => {
      const newest = walked[index]!
      walked.length = index + 1
      upper = [sessionID, newest.time.created, newest.id]
      promptsOnly = prompts
      exhausted = false
      batchSize = WALK_BATCH
    }
    // A message's parts, read together with those of every unread message newer than `through` (the walk keeps
    // them all when it gets there): one query where there was one per prompt and one more for the rest.
    const entry = async (index: number, through = index): Promise<MessageWithParts> => {
      const info = walked[index]!
      if (!promptParts.has(info.id)) {
        const ids = walked.slice(0, through + 1).flatMap((message) => (promptParts.has(message.id) ? [] : [message.id]))
        const read = await partsOfMessages(db, ids)
        for (const id of ids) promptParts.set(id, read.get(id) ?? [])
      }
      return { info, parts: promptParts.get(info.id)! }
    }

    // The index of the `count`th user message from `from` on, walking on as step 3 would to reach it (the last
    // message of the session when there are fewer).
    const nthUser = async (from: number, count: number): Promise<number> => {
      let seen = 0
      for (let index = from; index < walked.length || (await more()); index++) {
        if (walked[index]!.role === 'user' && ++seen === count) return index
      }
      return walked.length - 1
    }

    // Whether the user message before the follow-up at `index` is a compaction the user undid: the history filter
    // then drops the follow-up with it.
    const followsUndone = async (index: number): Promise<boolean> => {
      const before = await nthUser(index + 1, 1)
      if (before <= index || walked[before]!.role !== 'user') return false
      return compactionOf(await entry(before))?.undone !== undefined
    }

    // 1. The boundary: the newest marker whose newest summary completed, and that nobody undid.
    const summaries = new Map<string, Message>()
    let index = 0
    let boundary: { index: number; overflow: boolean; tailStart?: string } | undefined
    while (!boundary && (index < walked.length || (await more()))) {
      for (; index < walked.length && !boundary; index++) {
        const info = walked[index]!
        if (info.role === 'assistant' && info.summary && !summaries.has(info.parentID)) summaries.set(info.parentID, info)
        const summary = info.role === 'user' ? summaries.get(info.id) : undefined
        if (!summary || !isCompletedSummary({ info: summary, parts: [] })) continue
        const compaction = compactionOf(await entry(index))
        if (!compaction || compaction.undone !== undefined) continue
        boundary = { index, overflow: compaction.overflow === true, ...(compaction.tail_start_id ? { tailStart: compaction.tail_start_id } : {}) }
      }
    }
    if (!boundary) return { history: await wholeSession(), whole: true }

    // 2. Back to the start of the tail the summary left verbatim, when it lies before the marker. An overflow marker's
    // tail lies before the prompt it replays: the attempt between them is sent no more, so past PAST_START messages
    // the walk reads prompts only, down to the newest real one, then every message again (checked below).
    let start = boundary.index
    let replayed: string | undefined
    if (boundary.tailStart) {
      let probe = boundary.index + 1
      let found: number | undefined
      while (found === undefined && (probe < walked.length || (await more()))) {
        for (; probe < walked.length; probe++) {
          const info = walked[probe]!
          if (info.id === boundary.tailStart) {
            found = probe
            break
          }
          if (boundary.overflow && !skippedBefore && probe - boundary.index > PAST_START && info.role === 'assistant') {
            promptsOnlyFrom(probe)
            break
          }
          if (promptsOnly && isRealUser(await entry(probe))) {
            replayed = info.id
            walkFrom(probe, false)
          }
        }
      }
      // A tail that starts among the prompts read alone would miss replies it sends.
      if (found !== undefined && promptsOnly) return { history: await wholeSession(), whole: true }
      // Not in the session (rows from an import): no tail is sent, and the walk so far covers the rest.
      if (found !== undefined) start = found
    }

    // 3. Then PROMPTS_BEFORE prompts at or before that start, for the replay rule and for the title check.
    let prompts = 0
    let titled = 0
    let probe = start
    const tailStart = start
    let reachedStart = false
    while (prompts < PROMPTS_BEFORE || titled < PROMPTS_BEFORE) {
      // Walking one by one, no further than where it turns to prompts only.
      if (probe >= walked.length && !(await more(promptsOnly ? Infinity : Math.max(1, tailStart + PAST_START + 2 - walked.length)))) {
        reachedStart = true
        break
      }
      if (!promptsOnly && probe - tailStart > PAST_START && walked[probe]!.role === 'assistant') {
        promptsOnlyFrom(probe)
        continue
      }
      if (walked[probe]!.role === 'user') {
        // Through the user message that would be the last one counted, if every one up to it counts.
        const candidate = await entry(probe, await nthUser(probe, PROMPTS_BEFORE - Math.min(prompts, titled)))
        if (isRealUser(candidate) && !(isFollowUp(candidate) && (await followsUndone(probe)))) prompts++
        if (candidate.parts.some((part) => part.type !== 'text' || !part.synthetic)) titled++
      }
      start = probe
      probe++
    }
    // Every user message is walked: with replies left out, what was walked decides as the whole session does.
    if (reachedStart && !skippedBefore) return { history: await wholeSession(), whole: true }

    const kept = walked.slice(0, start + 1).reverse()
    const ids = new Set(kept.map((info) => info.id))
    if (kept.some((info) => info.role === 'assistant' && !ids.has(info.parentID))) return { history: await wholeSession(), whole: true }
    const unread = kept.filter((info) => !promptParts.has(info.id)).map((info) => info.id)
    const rest = unread.length > 0 ? await partsOfMessages(db, unread) : new Map<string, Part[]>()
    const history = inTurnOrder(kept.map((info) => ({ info, parts: promptParts.get(info.id) ?? rest.get(info.id) ?? [] })))
    // The attempt left out before an overflow marker must be what its replay leaves out of every request.
    if (replayed && !replacedAttempt(history, walked[boundary.index]!.id, replayed)) return { history: await wholeSession(), whole: true }
    return { history, whole: false, ...(skippedBefore ? { skippedBefore } : {}) }

    // What `loadHistory` reads, without reading again the messages walked already.
    async function wholeSession(): Promise<MessageWithParts[]> {
      const messages = exhausted && !skippedBefore ? walked.slice().reverse() : await messagesOf(context, sessionID).toArray()
      const parts = groupParts(await db.parts.where('sessionID').equals(sessionID).toArray())
      return inTurnOrder(messages.map((info) => ({ info, parts: parts.get(info.id) ?? [] })))
    }
  })
}

/** Whether the overflow marker `markerID` replays `prompt` or a prompt before it: all from there to it is dropped. */
function replacedAttempt(history: MessageWithParts[], markerID: string, prompt: string): boolean {
  const visible = visibleHistory(history)
  const replay = replayIndex(visible, visible.findIndex((entry) => entry.info.id === markerID))
  const at = visible.findIndex((entry) => entry.info.id === prompt)
  return replay !== undefined && (at < 0 || replay <= at)
}

const sortByID = (parts: Part[]) => parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

/** Parts by message, each list in id order (creation order), as `loadHistory` gives them. */
function groupParts(parts: Part[]): Map<string, Part[]> {
  const byMessage = new Map<string, Part[]>()
  for (const part of sortByID(parts)) {
    const list = byMessage.get(part.messageID)
    if (list) list.push(part)
    else byMessage.set(part.messageID, [part])
  }
  return byMessage
}

/**
 * The history from a message on (from the prompt it answers, for a reply), oldest first: what a revert at that
 * message would hide, without reading what comes before it.
 */
export async function loadHistoryFrom(context: StoreContext, sessionID: string, messageID: string): Promise<MessageWithParts[]> {
  const { db } = context
  return read(context, [db.messages, db.parts], async () => {
    const target = await db.messages.get(messageID)
    if (!target || target.sessionID !== sessionID) return []
    const prompt = target.role === 'assistant' ? await db.messages.get(target.parentID) : undefined
    const from = prompt && prompt.sessionID === sessionID && prompt.time.created <= target.time.created ? prompt : target
    const messages = await db.messages
      .where('[sessionID+time.created+id]')
      .between([sessionID, from.time.created, from.id], [sessionID, KEY.timeMax, KEY.idMax], true, true)
      .toArray()
    const parts = await partsOfMessages(db, messages.map((message) => message.id))
    return inTurnOrder(messages.map((info) => ({ info, parts: parts.get(info.id) ?? [] })))
  })
}
