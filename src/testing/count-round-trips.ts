import type { TabcodeDatabase } from '../store/database'

/**
 * The round trips a database's requests make to storage: a request issued while no other is in flight starts one,
 * and requests issued together share it. In Chromium each is a hop to the storage process and back, so a write
 * that awaits its requests one by one costs as many hops as it has requests (issue 32). A DBCore middleware, so
 * every path counts; `trips` is read and reset by the test.
 */
export async function countRoundTrips(db: TabcodeDatabase) {
  // Middleware joins only when the database opens.
  db.close()
  const counted = { trips: 0 }
  let inFlight = 0
  const track = <T>(request: () => Promise<T>): Promise<T> => {
    if (inFlight === 0) counted.trips++
    inFlight++
    // Dexie's own promise is passed on (`then`, not `async`), so the transaction keeps its zone.
    return request().then(
      (value) => {
        inFlight--
        return value
      },
      (error: unknown) => {
        inFlight--
        throw error
      },
    )
  }
  db.use({
    stack: 'dbcore',
    name: 'count-round-trips',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name)
        return {
          ...table,
          get: (request) => track(() => table.get(request)),
          getMany: (request) => track(() => table.getMany(request)),
          query: (request) => track(() => table.query(request)),
          count: (request) => track(() => table.count(request)),
          mutate: (request) => track(() => table.mutate(request)),
        }
      },
    }),
  })
  await db.open()
  return counted
}
