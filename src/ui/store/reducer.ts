import type { SessionEvent } from '../../core/event'
import type { MessageWithParts } from '../../core/dto/messages'
import type { UiState } from './state'

/** Binary search for `id` in a list sorted by id; returns its index or where it would go. */
function locate<T extends { id: string }>(list: T[], id: string): { index: number; found: boolean } {
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (list[middle]!.id < id) low = middle + 1
    else high = middle
  }
  return { index: low, found: list[low]?.id === id }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Updates a row in place, field by field and into nested objects: Solid then notifies only the fields that changed.
 * Replacing the object would re-render everything that reads the row; for a streamed text part the final
 * `part.updated` carries the same text the deltas already built, and must not make the view re-parse a long reply;
 * a session's `session.updated` at every step changes its time and cost, not its title or model.
 */
function mergeInto<T extends object>(target: T, source: T): void {
  const from = source as Record<string, unknown>
  const to = target as Record<string, unknown>
  for (const key of Object.keys(to)) if (!(key in from)) delete to[key]
  for (const [key, value] of Object.entries(from)) {
    const current = to[key]
    if (current === value) continue
    if (isPlainObject(current) && isPlainObject(value)) mergeInto(current, value)
    else to[key] = value
  }
}

function upsertSorted<T extends { id: string }>(list: T[], item: T): void {
  const { index, found } = locate(list, item.id)
  if (found) mergeInto(list[index]!, item)
  else list.splice(index, 0, item)
}

function removeSorted<T extends { id: string }>(list: T[], id: string): void {
  const { index, found } = locate(list, id)
  if (found) list.splice(index, 1)
}

/** Records a subagent session under its parent, in creation (id) order. */
export function addChild(state: UiState, parentID: string, childID: string): void {
  const list = (state.children[parentID] ??= [])
  if (list.includes(childID)) return
  list.push(childID)
  list.sort()
}

/**
 * Folds one worker event into the store. It mutates a draft (Solid's `produce`), touching only the rows the
 * event names, so the cost of an event does not grow with the length of a session.
 */
export function applyEvent(state: UiState, event: SessionEvent): void {
  switch (event.type) {
    case 'session.created':
    case 'session.updated': {
      const existing = state.sessions[event.info.id]
      if (existing) mergeInto(existing, event.info)
      else state.sessions[event.info.id] = event.info
      if (event.info.parentID) addChild(state, event.info.parentID, event.info.id)
      return
    }
    case 'session.deleted': {
      const id = event.info.id
      delete state.sessions[id]
      const parent = event.info.parentID
      if (parent && state.children[parent]) state.children[parent] = state.children[parent].filter((child) => child !== id)
      for (const message of state.messages[id] ?? []) delete state.parts[message.id]
      delete state.messages[id]
      delete state.status[id]
      delete state.errors[id]
      delete state.todos[id]
      delete state.queued[id]
      return
    }
    case 'message.updated': {
      const list = state.messages[event.info.sessionID]
      if (list) upsertSorted(list, event.info)
      return
    }
    case 'message.removed': {
      const list = state.messages[event.sessionID]
      if (list) removeSorted(list, event.messageID)
      delete state.parts[event.messageID]
      return
    }
    case 'part.updated': {
      if (!state.messages[event.part.sessionID]) return
      const list = (state.parts[event.part.messageID] ??= [])
      upsertSorted(list, event.part)
      return
    }
    case 'part.removed': {
      const list = state.parts[event.messageID]
      if (list) removeSorted(list, event.partID)
      return
    }
    case 'part.delta': {
      const list = state.parts[event.messageID]
      if (!list) return
      const { index, found } = locate(list, event.partID)
      const part = list[index]
      if (found && part && (part.type === 'text' || part.type === 'reasoning')) part.text += event.delta
      return
    }
    case 'session.status':
      state.status[event.sessionID] = event.status
      // A new turn (or a retry of the failed one) is under way: the last turn's error is no longer news.
      if (event.status.type === 'busy') delete state.errors[event.sessionID]
      return
    case 'todo.updated':
      state.todos[event.sessionID] = event.todos
      return
    case 'inbox.updated':
      state.queued[event.sessionID] = event.entries
      return
    // The summary and the marker arrive as their own message and part events; nothing else to fold in.
    case 'session.compacted':
      return
    case 'session.error':
      if (event.sessionID) state.errors[event.sessionID] = event.error
      return
    case 'permission.asked':
      state.asks[event.ask.id] = event.ask
      return
    case 'permission.replied':
      delete state.asks[event.askID]
      return
    case 'approval.updated':
    case 'workspace.changed':
    case 'project.updated':
      return
  }
}

/** Merges a page of history read from the worker; pages may arrive after live events, so existing rows win. */
export function applyHistory(state: UiState, sessionID: string, page: MessageWithParts[]): void {
  const list = (state.messages[sessionID] ??= [])
  for (const { info, parts } of page) {
    if (!locate(list, info.id).found) upsertSorted(list, info)
    const stored = (state.parts[info.id] ??= [])
    for (const part of parts) if (!locate(stored, part.id).found) upsertSorted(stored, part)
  }
}

/** Forgets a session's loaded history (when it is closed), keeping its info for the list. */
export function unloadHistory(state: UiState, sessionID: string): void {
  for (const message of state.messages[sessionID] ?? []) delete state.parts[message.id]
  delete state.messages[sessionID]
}
