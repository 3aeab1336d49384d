// Free of zod: e2e specs build large export files with it.
import type { SessionTranscript } from '../transcript'
import { realisticTranscript } from './realistic-session'

const DAY = 24 * 60 * 60 * 1000

/**
 * One session of `rounds` × 100 messages: the realistic session's conversation told again and again, each round a
 * month after the last, so every id is new and the order holds. What a large import or export is tested with.
 */
export function longTranscript(rounds: number): SessionTranscript {
  const first = realisticTranscript()
  const sessionID = first.info.id
  const messages = [...first.messages]
  for (let round = 1; round < rounds; round++) {
    const next = realisticTranscript(first.info.time.created + round * 30 * DAY)
    for (const message of next.messages) {
      messages.push({ info: { ...message.info, sessionID }, parts: message.parts.map((part) => ({ ...part, sessionID })) })
    }
  }
  const last = messages.at(-1)!.info
  return { info: { ...first.info, time: { ...first.info.time, updated: last.time.created } }, messages }
}

/** A `tabcode-session` export file of `longTranscript(rounds)`, as text. */
export function longSessionFile(rounds: number): string {
  const transcript = longTranscript(rounds)
  return JSON.stringify({ format: 'tabcode-session', version: 1, exported: { time: transcript.info.time.updated, app: 'test' }, session: transcript })
}
