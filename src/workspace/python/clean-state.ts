import type { PyodideAPI } from 'pyodide'

/**
 * What a fresh process gives each Python command, without the seconds a new interpreter costs: the interpreter's
 * whole memory as it was right after start-up, put back before the next command. Everything Python keeps lives in
 * that memory (imported modules, the codec registry, warnings filters, monkeypatches, atexit handlers, the
 * environment), so a restored interpreter is byte for byte the one that started; copying ~30 MB takes ~10 ms.
 *
 * Outside the memory, only what a command may have left in JavaScript needs care: the slots of Pyodide's table of
 * JavaScript objects (a slot freed and reused by a command would hold another object than the restored memory
 * expects), files the command left open, and the finalizers of Python objects it handed to JavaScript (they would
 * release objects of a memory that no longer exists). The files themselves are not in the memory and stay, as on a
 * machine: the project is synced separately (sync.ts).
 */
export interface CleanState {
  /** Puts the interpreter back as it was when the state was taken. */
  restore(): void
  /**
   * Whether the last run used Pyodide's bridge to JavaScript (`import js`, `pyodide.ffi`): some of the bridge's
   * state is on the JavaScript side, where a restore does not reach (a later run then failed with "hiwire_incref on
   * invalid reference"), so such an interpreter is not restored but replaced. Pure Python leaves the table alone.
   */
  touchedJavaScript(): boolean
}

/** The parts of Pyodide's Emscripten module this needs; they are not in its public types. */
interface EmscriptenModule {
  HEAP8: Int8Array
  _hiwire_num_refs(): number
  __hiwire_slot_info(index: number): number
  __hiwire_get(index: number): unknown
  __hiwire_set(index: number, value: unknown): number
  finalizationRegistry: { register(target: object, held: unknown, token?: object): void; unregister(token: object): boolean }
}

interface FileSystem {
  streams: ({ fd: number } | null | undefined)[]
  close(stream: object): void
}

/** How many free slots in a row end the search for live ones (the table holds a few hundred after start-up). */
const SLOT_SEARCH = 4096

const FREE = Symbol('free slot')

/** Takes the state to come back to; call it when the interpreter is ready and nothing runs. */
export function takeCleanState(pyodide: PyodideAPI): CleanState {
  const module = (pyodide as unknown as { _module: EmscriptenModule })._module
  const fs = pyodide.FS as unknown as FileSystem
  const memory = module.HEAP8.slice()
  // A freed slot reads as an error, and live ones may follow it: read on well past the last live one.
  const slots = new Map<number, unknown>()
  for (let index = 0, last = 0; index <= last + SLOT_SEARCH; index++) {
    try {
      slots.set(index, module.__hiwire_get(index))
      last = index
    } catch {
      // a free slot
    }
  }
  const tableState = () => {
    const state = [module._hiwire_num_refs()]
    for (let index = 0; index <= lastSlot + SLOT_SEARCH; index++) {
      let value: unknown = FREE
      try {
        value = module.__hiwire_get(index)
      } catch {
        // a free slot
      }
      // A slot's count and generation are read only where the table is known to reach: past it they are other memory.
      state.push(value === FREE ? -1 : slots.get(index) === value ? 1 : 0, slots.has(index) ? module.__hiwire_slot_info(index) : 0)
    }
    return state
  }
  const lastSlot = Math.max(0, ...slots.keys())
  const table = tableState()
  const openFiles = new Set(fs.streams.flatMap((stream, fd) => (stream ? [fd] : [])))

  const registry = module.finalizationRegistry
  const register = registry.register.bind(registry)
  const handedOut = new Set<object>()
  registry.register = (target, held, token) => {
    if (token) handedOut.add(token)
    register(target, held, token)
  }

  return {
    touchedJavaScript() {
      const now = tableState()
      return now.some((value, index) => value !== table[index])
    },
    restore() {
      for (const token of handedOut) registry.unregister(token)
      handedOut.clear()
      fs.streams.forEach((stream, fd) => {
        if (!stream || openFiles.has(fd)) return
        try {
          fs.close(stream)
        } catch {
          // Already closed underneath (a pipe's other end): nothing left to release.
        }
      })
      // The memory only grows; what lies past the start-up size is zeroed, as new memory is.
      const heap = module.HEAP8
      heap.set(memory)
      heap.fill(0, memory.length)
      for (const [index, value] of slots) module.__hiwire_set(index, value)
    },
  }
}
