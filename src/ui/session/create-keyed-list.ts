import { createMemo, type Accessor } from 'solid-js'
import { sameItems } from '../store/same-items'

export interface KeyedList<T> {
  ids: Accessor<string[]>
  get(id: string): T | undefined
}

/**
 * Rows keyed by id instead of by object. The reducer replaces a row's object on every update, so `<For>` over the
 * objects would rebuild the row's DOM (and lose an expanded card or a scroll position) each time a streaming part
 * is flushed. `<For>` over the ids keeps each row; the row reads its current object through `get`.
 */
export function createKeyedList<T extends { id: string }>(list: Accessor<readonly T[]>): KeyedList<T> {
  const ids = createMemo(() => list().map((item) => item.id), [], { equals: sameItems })
  const byID = createMemo(() => {
    const map = new Map<string, T>()
    for (const item of list()) map.set(item.id, item)
    return map
  })
  return { ids, get: (id) => byID().get(id) }
}
