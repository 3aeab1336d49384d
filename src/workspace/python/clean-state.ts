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

/** Every slot of the table (a free one holds whatever it held last); reading past its end is an error. */
function readTable(module: EmscriptenModule): unknown[] {
  const values: unknown[] = []
  while (values.length < MAX_SLOTS) {
    try {
      values.push(module.__hiwire_get(values.length))
    } catch {
      return values
    }
  }
  return values
}

/** More slots than start-up ever holds (a few dozen): a table longer than this is compared on its first slots only. */
const MAX_SLOTS = 1 << 14

/** Takes the state to come back to; call it when the interpreter is ready and nothing runs. */
export function takeCleanState(pyodide: PyodideAPI): CleanState {
  const module = (pyodide as unknown as { _module: EmscriptenModule })._module
  const fs = pyodide.FS as unknown as FileSystem
  const memory = module.HEAP8.slice()
  const slots = readTable(module)
  // The table only grows when a slot is needed: a run that used none leaves its length, values and generations alone.
  const tableState = () => {
    const now = readTable(module)
    return [module._hiwire_num_refs(), now.length, ...now.flatMap((value, index) => [value === slots[index] ? 1 : 0, module.__hiwire_slot_info(index)])]
  }
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
      slots.forEach((value, index) => module.__hiwire_set(index, value))
    },
  }
}
