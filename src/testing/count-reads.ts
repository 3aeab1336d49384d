import type { TabcodeDatabase } from '../store/database'
import type { Message, Part } from '../core/schema'

/**
 * Every message and part row the database hands out, by table (a DBCore middleware, so every read path counts);
 * session rows apart, in `sessionRows`. `cursorRows`: the rows of messages and parts that came through a cursor, each
 * a round trip of its own to Chromium's storage process (a range read is one for all its rows).
 */
export async function countReads(db: TabcodeDatabase) {
  // Middleware joins only when the database opens.
  db.close()
  const read = { messages: new Set<string>(), parts: new Set<string>(), rows: 0, sessionRows: 0, cursorRows: 0 }
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
          // Dexie's own promises are passed on (`then`, not `async`): a native promise in between loses the
          // transaction's zone when reads run side by side, and Dexie then commits it early.
          get: (request) =>
            table.get(request).then((row) => {
              note(name, row)
              return row
            }),
          getMany: (request) =>
            table.getMany(request).then((rows) => {
              for (const row of rows) note(name, row)
              return rows
            }),
          query: (request) =>
            table.query(request).then((response) => {
              if (request.values) for (const row of response.result) note(name, row)
              return response
            }),
          openCursor: (request) =>
            table.openCursor(request).then((cursor) => {
              if (!cursor || !request.values) return cursor
              const start = cursor.start.bind(cursor)
              return Object.create(cursor, {
                start: {
                  value: (onNext: () => void) =>
                    start(() => {
                      note(name, cursor.value)
                      if (name !== 'sessions') read.cursorRows++
                      onNext()
                    }),
                },
              })
            }),
        }
      },
    }),
  })
  await db.open()
  return read
}
