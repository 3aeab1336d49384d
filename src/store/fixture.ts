import { z } from 'zod'
import type { StoreContext } from './context'
import { parseWith } from '../core/errors'
import { MessageSchema, PartSchema, SessionInfoSchema } from '../core/schema'

/**
 * Rows written as they are, for tests and benchmarks that need history the loop has not produced yet. The worker
 * exposes this only through its test hook; everything is validated and written in one transaction.
 */
export const FixtureSchema = z.object({
  sessions: z.array(SessionInfoSchema),
  messages: z.array(MessageSchema).default([]),
  parts: z.array(PartSchema).default([]),
})
export type Fixture = z.input<typeof FixtureSchema>

export async function writeFixture(context: StoreContext, input: Fixture): Promise<{ sessions: number; messages: number; parts: number }> {
  const fixture = parseWith(FixtureSchema, input, 'fixture')
  const { db } = context
  await db.transaction('rw', db.sessions, db.messages, db.parts, async () => {
    await db.sessions.bulkPut(fixture.sessions)
    await db.messages.bulkPut(fixture.messages)
    await db.parts.bulkPut(fixture.parts)
  })
  for (const info of fixture.sessions) context.emit({ type: 'session.created', info })
  return { sessions: fixture.sessions.length, messages: fixture.messages.length, parts: fixture.parts.length }
}
