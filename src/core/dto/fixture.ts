import { z } from 'zod'
import { MessageSchema, PartSchema, SessionInfoSchema } from '../schema'

/**
 * Rows for tests and benchmarks that need history the loop has not produced yet, written as they are by
 * store/fixture.ts. The worker accepts them only through its test hook.
 */
export const FixtureSchema = z.object({
  sessions: z.array(SessionInfoSchema),
  messages: z.array(MessageSchema).default([]),
  parts: z.array(PartSchema).default([]),
})
export type Fixture = z.input<typeof FixtureSchema>
