import { createComputed, createRoot, createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import { createKeyedList } from './create-keyed-list'

interface Row {
  id: string
  text: string
}

const row = (id: string, text = id): Row => ({ id, text })

function setup(initial: Row[]) {
  return createRoot((dispose) => {
    const [list, setList] = createSignal<readonly Row[]>(initial)
    return { keyed: createKeyedList(list), setList, dispose }
  })
}

/** Runs `read` as a row's reactive read does, and records what it saw each time it ran. */
function reader<T>(read: () => T): { runs: T[]; dispose: () => void } {
  const runs: T[] = []
  const dispose = createRoot((dispose) => {
    createComputed(() => runs.push(read()))
    return dispose
  })
  return { runs, dispose }
}

describe('createKeyedList', () => {
  it('gives each id its row and the id before it', () => {
    const { keyed, dispose } = setup([row('a'), row('b'), row('c')])
    expect(keyed.ids()).toEqual(['a', 'b', 'c'])
    expect(keyed.get('b')?.text).toBe('b')
    expect(keyed.previousID('a')).toBeUndefined()
    expect(keyed.previousID('c')).toBe('b')
    expect(keyed.get('zzz')).toBeUndefined()
    dispose()
  })

  it("does not re-run a row's reads when other rows come or go", () => {
    const { keyed, setList, dispose } = setup([row('a'), row('b')])
    const first = reader(() => keyed.get('a')?.text)
    const second = reader(() => keyed.previousID('b'))
    const [a, b] = [keyed.get('a')!, keyed.get('b')!]
    // A new message at the end.
    setList([a, b, row('c')])
    expect(keyed.get('c')?.text).toBe('c')
    expect(first.runs).toEqual(['a'])
    expect(second.runs).toEqual(['a'])
    // Its own row replaced, then removed (which changes the second row's predecessor).
    setList([row('a', 'A'), b, row('c')])
    setList([b, row('c')])
    expect(first.runs).toEqual(['a', 'A', undefined])
    expect(second.runs).toEqual(['a', undefined])
    first.dispose()
    second.dispose()
    dispose()
  })

  it('tells a reader when its id appears, after it went or before it ever came', () => {
    const { keyed, setList, dispose } = setup([row('a')])
    const gone = reader(() => keyed.get('a')?.text)
    const awaited = reader(() => keyed.get('later')?.text)
    setList([])
    setList([row('a', 'back'), row('later')])
    expect(gone.runs).toEqual(['a', undefined, 'back'])
    expect(awaited.runs).toEqual([undefined, 'later'])
    gone.dispose()
    awaited.dispose()
    dispose()
  })
})
