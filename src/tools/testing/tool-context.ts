import type { StoreContext } from '../../store/context'
import { createMemoryWorkspace } from '../../workspace/local/memory-workspace'
import type { LocalWorkspace } from '../../workspace/local/stored-workspace'
import { createFileTimes } from '../file-times'
import type { PermissionRequest, ToolContext } from '../tool'

/** A `ToolContext` for tests, with what the tool did to it recorded. */
export interface TestToolContext extends ToolContext {
  /** Every permission request, in order, whatever the answer. */
  asks: PermissionRequest[]
  /** Every `progress` update, in order. */
  updates: Array<{ title?: string; metadata?: Record<string, unknown> }>
  /** Aborts `abort`. */
  controller: AbortController
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
 * newer modification time, without sleeping), real FileTimes, and an `ask` that records and allows. Anything can be
 * overridden; a tool that reads `store` needs one passed in (`makeTestContext().context` from
 * `src/session/test-context.ts`), otherwise using it throws a message saying so.
 */
export function makeToolContext(options: ToolContextOptions = {}): TestToolContext {
  const { seed, answer, ...overrides } = options
  const controller = new AbortController()
  const asks: PermissionRequest[] = []
  const updates: TestToolContext['updates'] = []
  const context: TestToolContext = {
    store: missingStore(),
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

const STORE_FIELDS = new Set<string | symbol>(['db', 'now', 'emit', 'version'] satisfies Array<keyof StoreContext>)

function missingStore(): StoreContext {
  return new Proxy({} as StoreContext, {
    get(_target, property) {
      // Only the store's own fields throw, so printing or awaiting the context in a test does not.
      if (!STORE_FIELDS.has(property)) return undefined
      throw new Error(
        `This test's ToolContext has no store (the tool read store.${String(property)}); ` +
          'pass makeToolContext({ store: makeTestContext().context })',
      )
    },
  })
}
