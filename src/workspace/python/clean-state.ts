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
}

/** The parts of Pyodide's Emscripten module this needs; they are not in its public types. */
interface EmscriptenModule {
  HEAP8: Int8Array
  __hiwire_get(index: number): unknown
  __hiwire_set(index: number, value: unknown): number
  finalizationRegistry: { register(target: object, held: unknown, token?: object): void; unregister(token: object): boolean }
}

interface FileSystem {
  streams: ({ fd: number } | null | undefined)[]
  close(stream: object): void
}

/** Takes the state to come back to; call it when the interpreter is ready and nothing runs. */
export function takeCleanState(pyodide: PyodideAPI): CleanState {
  const module = (pyodide as unknown as { _module: EmscriptenModule })._module
  const fs = pyodide.FS as unknown as FileSystem
  const memory = module.HEAP8.slice()
  const slots: unknown[] = []
  for (let index = 0; ; index++) {
    try {
      slots.push(module.__hiwire_get(index))
    } catch {
      break
    }
  }
  const openFiles = new Set(fs.streams.flatMap((stream, fd) => (stream ? [fd] : [])))

  const registry = module.finalizationRegistry
  const register = registry.register.bind(registry)
  const handedOut = new Set<object>()
  registry.register = (target, held, token) => {
    if (token) handedOut.add(token)
    register(target, held, token)
  }

  return {
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
