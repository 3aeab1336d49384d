import type { PermissionRequest, Todos, ToolOutputs } from '../../core/ports'
import type { Todo } from '../../core/schema'
import { createMemoryWorkspace } from '../../workspace/local/testing/memory-workspace'
import type { LocalWorkspace } from '../../workspace/local/stored-workspace'
import { createFileTimes } from '../file-times'
import type { ToolContext } from '../tool'

/** A `ToolContext` for tests, with what the tool did to it recorded. */
export interface TestToolContext extends ToolContext {
  /** Every permission request, in order, whatever the answer. */
  asks: PermissionRequest[]
  /** Every `progress` update, in order. */
  updates: Array<{ title?: string; metadata?: Record<string, unknown> }>
  /** Aborts `abort`. */
  controller: AbortController
}

/** Outputs kept in memory: `saved` holds every text by id, seeded with `seed`. */
export interface MemoryOutputs extends ToolOutputs {
  saved: Map<string, string>
}

/** Tool outputs in a map, with ids in the stored form (`tool_` and a counter), optionally seeded by id. */
export function memoryOutputs(seed: Record<string, string> = {}): MemoryOutputs {
  const saved = new Map(Object.entries(seed))
  return {
    saved,
    save: async ({ text }) => {
      const id = `tool_${String(saved.size + 1).padStart(26, '0')}`
      saved.set(id, text)
      return id
    },
    read: async (id) => saved.get(id),
  }
}

/** Task lists in memory, by session (`lists`). */
export function memoryTodos(): Todos & { lists: Map<string, Todo[]> } {
  const lists = new Map<string, Todo[]>()
  return {
    lists,
    write: async (sessionID, todos) => {
      lists.set(sessionID, todos)
      return todos
    },
  }
}

export interface ToolContextOptions extends Partial<ToolContext> {
  /**
   * Files for the memory workspace made when `workspace` is not given, by path (absolute, or relative to
   * `/workspace`).
   */
  seed?: Record<string, string>
  /** Decides each recorded permission request: resolve to allow, throw to refuse. Allows everything by default. */
  answer?: (request: PermissionRequest) => void | Promise<void>
}

export const TEST_SESSION_ID = 'ses_test'
export const TEST_MESSAGE_ID = 'msg_test'
export const TEST_CALL_ID = 'call_test'

/**
 * A full tool context over a memory workspace whose clock moves one millisecond per change (so every write has a
 * newer modification time, without sleeping), real FileTimes, outputs and todos in memory, and an `ask` that records
 * and allows. Anything can be overridden.
 */
export function makeToolContext(options: ToolContextOptions = {}): TestToolContext {
  const { seed, answer, ...overrides } = options
  const controller = new AbortController()
  const asks: PermissionRequest[] = []
  const updates: TestToolContext['updates'] = []
  const context: TestToolContext = {
    sessionID: TEST_SESSION_ID,
    messageID: TEST_MESSAGE_ID,
    callID: TEST_CALL_ID,
    abort: controller.signal,
    progress: (update) => updates.push(update),
    workspace: makeTestWorkspace(seed),
    agent: 'build',
    ask: async (request) => {
      asks.push(request)
      await answer?.(request)
    },
    files: createFileTimes(),
    subtask: async () => {
      throw new Error('This test context runs no subagents; pass `subtask` to makeToolContext')
    },
    outputs: memoryOutputs(),
    todos: memoryTodos(),
    asks,
    updates,
    controller,
    ...overrides,
  }
  return context
}

/** A memory workspace whose clock starts at a fixed time and ticks one millisecond each time it is read. */
export function makeTestWorkspace(files: Record<string, string> = {}, start = Date.UTC(2026, 0, 1)): LocalWorkspace {
  let time = start
  return createMemoryWorkspace(files, { now: () => ++time })
}
