import type { StoreContext } from './context'
import { parseWith } from '../core/errors'
import { FixtureSchema, type Fixture } from '../core/dto/fixture'
import { write } from './transaction'

export { FixtureSchema, type Fixture }

/** Writes a fixture's rows as they are, validated first, in one transaction. */
export async function writeFixture(context: StoreContext, input: Fixture): Promise<{ sessions: number; messages: number; parts: number }> {
  const fixture = parseWith(FixtureSchema, input, 'fixture')
  const { db } = context
  await write(context, [db.sessions, db.messages, db.parts], async (announce) => {
    await db.sessions.bulkPut(fixture.sessions)
    await db.messages.bulkPut(fixture.messages)
    await db.parts.bulkPut(fixture.parts)
    for (const info of fixture.sessions) announce({ type: 'session.created', info })
  })
  return { sessions: fixture.sessions.length, messages: fixture.messages.length, parts: fixture.parts.length }
}
