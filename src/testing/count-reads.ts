import type { TabcodeDatabase } from '../store/database'
import type { Message, Part } from '../core/schema'

/**
 * Every message and part row the database hands out, by table (a DBCore middleware, so every read path counts);
 * session rows apart, in `sessionRows`.
 */
export async function countReads(db: TabcodeDatabase) {
  // Middleware joins only when the database opens.
  db.close()
  const read = { messages: new Set<string>(), parts: new Set<string>(), rows: 0, sessionRows: 0 }
  const note = (table: string, row: unknown) => {
    if (!row || typeof row !== 'object' || !('id' in row)) return
    if (table === 'sessions') return void read.sessionRows++
    read.rows++
    if (table === 'messages') read.messages.add((row as Message).id)
    if (table === 'parts') read.parts.add((row as Part).messageID)
  }
  db.use({
    stack: 'dbcore',
    name: 'count-reads',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name)
        if (name !== 'messages' && name !== 'parts' && name !== 'sessions') return table
        return {
          ...table,
          get: async (request) => {
            const row = await table.get(request)
            note(name, row)
            return row
          },
          getMany: async (request) => {
            const rows = await table.getMany(request)
            for (const row of rows) note(name, row)
            return rows
          },
          query: async (request) => {
            const response = await table.query(request)
            if (request.values) for (const row of response.result) note(name, row)
            return response
          },
          openCursor: async (request) => {
            const cursor = await table.openCursor(request)
            if (!cursor || !request.values) return cursor
            const start = cursor.start.bind(cursor)
            return Object.create(cursor, {
              start: {
                value: (onNext: () => void) =>
                  start(() => {
                    note(name, cursor.value)
                    onNext()
                  }),
              },
            })
          },
        }
      },
    }),
  })
  await db.open()
  return read
}
