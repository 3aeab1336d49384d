import type { Message, Part, SessionInfo } from '../core/schema'
import type { MessageWithParts } from '../store/message-store'
import type { SessionTranscript } from './transcript'

/**
 * The compact form a share link carries (link format v1). A link has a hard length budget, and most of a stored
 * transcript's bytes that deflate cannot shrink are ids (random tails, repeated in every reference) and 13-digit
 * timestamps. So the packed form:
 * - drops every id and every field the nesting already says (`sessionID`, `messageID`, a child's `parentID`);
 *   rows get positional ids on unpacking, and references between rows (an assistant's `parentID`, a compaction's
 *   `tail_start_id`, a revert point) are rewritten to those positional ids first;
 * - leaves out an assistant's `parentID` when it is the nearest user message before it (nearly always);
 * - stores each timestamp as the difference from the previous one in reading order;
 * - leaves out what only means something in the browser that made it: the project, snapshots, the fork origin.
 * The importer gives every row a fresh id anyway, so nothing that matters is lost.
 */
export interface PackedTranscript {
  /** Session info without ids. */
  s: Record<string, unknown>
  /** Messages: [info without ids, parts without ids]. */
  m: [Record<string, unknown>, Record<string, unknown>[]][]
  c?: PackedTranscript[]
}

interface Clock {
  last: number
}

function encodeTimes(time: unknown, clock: Clock): unknown {
  if (!time || typeof time !== 'object') return time
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(time)) out[key] = typeof value === 'number' ? encodeTime(value, clock) : value
  return out
}

function decodeTimes(time: unknown, clock: Clock): unknown {
  if (!time || typeof time !== 'object' || Array.isArray(time)) return time
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(time)) out[key] = typeof value === 'number' ? decodeTime(value, clock) : value
  return out
}

function encodeTime(value: number, clock: Clock): number {
  const delta = value - clock.last
  clock.last = value
  return delta
}

function decodeTime(delta: number, clock: Clock): number {
  const value = clock.last + delta
  clock.last = value
  return value
}

/** Positional ids: the same on both sides, so references can be rewritten before packing and simply kept after. */
export const positionalID = {
  session: (session: number) => `ses_${session}`,
  message: (session: number, message: number) => `msg_${session}x${message}`,
  part: (session: number, message: number, part: number) => `prt_${session}x${message}x${part}`,
}

function without<T extends object>(value: T, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) if (!keys.includes(key)) out[key] = item
  return out
}

export function packTranscript(transcript: SessionTranscript): PackedTranscript {
  let sessionOrdinal = 0
  const packNode = (node: SessionTranscript): PackedTranscript => {
    const ordinal = sessionOrdinal++
    const clock: Clock = { last: 0 }
    const ids = new Map<string, string>()
    node.messages.forEach((message, messageIndex) => {
      ids.set(message.info.id, positionalID.message(ordinal, messageIndex))
      message.parts.forEach((part, partIndex) => ids.set(part.id, positionalID.part(ordinal, messageIndex, partIndex)))
    })
    const ref = (id: string) => ids.get(id) ?? id

    const info = without(node.info, ['id', 'parentID', 'projectID', 'workspaceID', 'share', 'fork'])
    info.time = encodeTimes(node.info.time, clock)
    if (node.info.revert) {
      const { messageID, partID, snapshot: _snapshot, diff: _diff, ...rest } = node.info.revert
      info.revert = { ...rest, messageID: ref(messageID), ...(partID ? { partID: ref(partID) } : {}) }
    }

    let lastUser: string | undefined
    const messages = node.messages.map((message): [Record<string, unknown>, Record<string, unknown>[]] => {
      const packed = without(message.info, ['id', 'sessionID', 'parentID'])
      packed.time = encodeTimes(message.info.time, clock)
      if (message.info.role === 'user') lastUser = message.info.id
      else if (message.info.parentID !== lastUser) packed.parentID = ref(message.info.parentID)
      return [packed, message.parts.map((part) => packPart(part, clock, ref))]
    })
    const children = node.children?.map(packNode)
    return { s: info, m: messages, ...(children?.length ? { c: children } : {}) }
  }
  return packNode(transcript)
}

function packPart(part: Part, clock: Clock, ref: (id: string) => string): Record<string, unknown> {
  const packed = without(part, ['id', 'sessionID', 'messageID'])
  switch (part.type) {
    case 'text':
    case 'reasoning':
      if (part.time) packed.time = encodeTimes(part.time, clock)
      break
    case 'retry':
      packed.time = encodeTimes(part.time, clock)
      break
    case 'tool': {
      const state: Record<string, unknown> = { ...part.state }
      if ('time' in part.state) state.time = encodeTimes(part.state.time, clock)
      if (part.state.status === 'completed' && part.state.attachments) {
        state.attachments = part.state.attachments.map((file) => without(file, ['id', 'sessionID', 'messageID']))
      }
      packed.state = state
      break
    }
    case 'step-start':
    case 'step-finish':
      delete packed.snapshot
      break
    case 'compaction':
      if (part.tail_start_id) packed.tail_start_id = ref(part.tail_start_id)
      if (part.undone !== undefined) packed.undone = encodeTime(part.undone, clock)
      break
  }
  return packed
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

/**
 * Rebuilds a transcript from its packed form. The input is untrusted: shapes are coerced just enough to walk them
 * (a wrong shape becomes an empty one), and the result is validated against the full schemas by the caller.
 */
export function unpackTranscript(packed: unknown): SessionTranscript {
  let sessionOrdinal = 0
  const unpackNode = (value: unknown, parentID: string | undefined): SessionTranscript => {
    const node = record(value)
    const ordinal = sessionOrdinal++
    const sessionID = positionalID.session(ordinal)
    const clock: Clock = { last: 0 }
    const packedInfo = record(node.s)
    const info = {
      ...packedInfo,
      id: sessionID,
      projectID: 'prj_link',
      ...(parentID ? { parentID } : {}),
      time: decodeTimes(packedInfo.time, clock),
    } as unknown as SessionInfo

    let lastUser: string | undefined
    const messages = list(node.m).map((entry, messageIndex): MessageWithParts => {
      const [rawInfo, rawParts] = list(entry)
      const packedMessage = record(rawInfo)
      const id = positionalID.message(ordinal, messageIndex)
      const message = { ...packedMessage, id, sessionID, time: decodeTimes(packedMessage.time, clock) } as Record<string, unknown>
      if (message.role === 'user') lastUser = id
      else if (message.role === 'assistant' && message.parentID === undefined && lastUser) message.parentID = lastUser
      const parts = list(rawParts).map((rawPart, partIndex) =>
        unpackPart(record(rawPart), { id: positionalID.part(ordinal, messageIndex, partIndex), sessionID, messageID: id }, clock),
      )
      return { info: message as unknown as Message, parts }
    })
    const children = list(node.c).map((child) => unpackNode(child, sessionID))
    return { info, messages, ...(children.length ? { children } : {}) }
  }
  return unpackNode(packed, undefined)
}

function unpackPart(packed: Record<string, unknown>, ids: { id: string; sessionID: string; messageID: string }, clock: Clock): Part {
  const part: Record<string, unknown> = { ...packed, ...ids }
  switch (packed.type) {
    case 'text':
    case 'reasoning':
    case 'retry':
      if (packed.time !== undefined) part.time = decodeTimes(packed.time, clock)
      break
    case 'tool': {
      const state = { ...record(packed.state) }
      if (state.time !== undefined) state.time = decodeTimes(state.time, clock)
      if (Array.isArray(state.attachments)) {
        state.attachments = state.attachments.map((file, index) => ({
          ...record(file),
          id: `${ids.id}a${index}`,
          sessionID: ids.sessionID,
          messageID: ids.messageID,
        }))
      }
      part.state = state
      break
    }
    case 'compaction':
      if (typeof packed.undone === 'number') part.undone = decodeTime(packed.undone, clock)
      break
  }
  return part as unknown as Part
}
