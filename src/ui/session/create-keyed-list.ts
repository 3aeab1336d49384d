import { createComputed, createMemo, createSignal, untrack, type Accessor, type Setter } from 'solid-js'
import { sameItems } from '../kit/same-items'

export interface KeyedList<T> {
  ids: Accessor<string[]>
  /** The row with this id; a reader is notified only when that row changes, not when others come or go. */
  get(id: string): T | undefined
  /** The id of the row before this one, with the same fine-grained notification. */
  previousID(id: string): string | undefined
}

interface Cell<T> {
  item: Accessor<T | undefined>
  setItem: Setter<T | undefined>
  previous: Accessor<string | undefined>
  setPrevious: Setter<string | undefined>
}

/**
 * Rows keyed by id instead of by object. The reducer replaces a row's object on some updates, so `<For>` over the
 * objects would rebuild the row's DOM (and lose an expanded card or a scroll position) each time. `<For>` over the
 * ids keeps each row; the row reads its current object through `get`.
 *
 * Each id has its own signals, written only when its row or its predecessor changed. With one map of all rows, a
 * new message at the end of a 2,000-message session re-ran every mounted row's reads of it: a few milliseconds of
 * the frame in which a reply starts.
 */
export function createKeyedList<T extends { id: string }>(list: Accessor<readonly T[]>): KeyedList<T> {
  const ids = createMemo(() => list().map((item) => item.id), [], { equals: sameItems })
  const cells = new Map<string, Cell<T>>()
  const cellOf = (id: string): Cell<T> => {
    let cell = cells.get(id)
    if (!cell) {
      const [item, setItem] = createSignal<T | undefined>(undefined)
      const [previous, setPrevious] = createSignal<string | undefined>(undefined)
      cell = { item, setItem, previous, setPrevious }
      cells.set(id, cell)
    }
    return cell
  }
  createComputed(() => {
    const items = list()
    const present = new Set<string>()
    let previous: string | undefined
    for (const item of items) {
      present.add(item.id)
      const cell = cellOf(item.id)
      cell.setItem(() => item)
      cell.setPrevious(previous)
      previous = item.id
    }
    // A row that left reads as gone, which tells its readers; they read a fresh cell when they run again, so this one
    // can go. A cell that never had a row is kept: someone asked for that id and waits for it.
    for (const [id, cell] of cells) {
      if (present.has(id) || untrack(cell.item) === undefined) continue
      cell.setItem(undefined)
      cell.setPrevious(undefined)
      cells.delete(id)
    }
  })
  return {
    ids,
    get: (id) => cellOf(id).item(),
    previousID: (id) => cellOf(id).previous(),
  }
}
