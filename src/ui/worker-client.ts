import * as Comlink from 'comlink'
import type { SessionEvent, SessionEventType } from '../core/event'
import { EVENT_CHANNEL, PROTOCOL_VERSION, type ClientApi, type EventEnvelope, type WireApi } from '../core/protocol'
import { fromWire } from '../core/wire'
import { defineError } from '../core/errors'

export const ProtocolMismatchError = defineError('ProtocolMismatchError', (workerProtocol: number) => ({
  message: `This page speaks protocol ${PROTOCOL_VERSION} but its worker speaks ${workerProtocol}. Reload the page.`,
  data: { workerProtocol },
}))

/** The worker script did not load or never answered, so there is no backend to talk to. */
export const WorkerLoadError = defineError('WorkerLoadError', (message: string) => ({ message, data: {} }))

/** A module worker that fails to load only fires `error` on the Worker object; Comlink would wait forever. */
export const HELLO_TIMEOUT_MS = 15_000

export interface WorkerConnection {
  api: ClientApi
  /** Subscribes to live events from every tab's worker; returns the unsubscribe function. */
  listen(handler: (event: SessionEvent) => void): () => void
  /** Called when an event from a tab running another build arrives (that tab should be reloaded). */
  onForeignProtocol(handler: (protocol: number) => void): void
}

// A record over the union's types, so a new event type that is not listed here fails to compile.
const KNOWN_EVENTS: Record<SessionEventType, true> = {
  'session.created': true,
  'session.updated': true,
  'session.deleted': true,
  'message.updated': true,
  'message.removed': true,
  'part.updated': true,
  'part.removed': true,
  'part.delta': true,
  'session.status': true,
  'session.error': true,
  'session.compacted': true,
  'todo.updated': true,
  'inbox.updated': true,
  'permission.asked': true,
  'permission.replied': true,
  'approval.updated': true,
  'workspace.changed': true,
  'project.updated': true,
  'sync.status': true,
}
const EVENT_TYPES = new Set<string>(Object.keys(KNOWN_EVENTS))

/**
 * The one place the UI accepts events: anything that is not a well-formed envelope of our protocol is dropped, and so
 * is any event in it of a type this build does not know (the others of its batch still count).
 */
export function readEnvelope(data: unknown): { events: SessionEvent[] } | { foreign: number } | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const envelope = data as Partial<EventEnvelope>
  if (typeof envelope.protocol !== 'number') return undefined
  if (envelope.protocol !== PROTOCOL_VERSION) return { foreign: envelope.protocol }
  if (!Array.isArray(envelope.events)) return undefined
  const events = envelope.events.filter((event: unknown) => {
    const type = (event as { type?: unknown } | null)?.type
    return typeof type === 'string' && EVENT_TYPES.has(type)
  })
  return events.length ? { events } : undefined
}

export async function connectWorker(): Promise<WorkerConnection> {
  const worker = new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module', name: 'tabcode' })
  const remote = Comlink.wrap<WireApi>(worker)
  const api = fromWire(remote as never)
  let timer: ReturnType<typeof setTimeout> | undefined
  const failed = new Promise<never>((_resolve, reject) => {
    worker.addEventListener(
      'error',
      (event) => reject(new WorkerLoadError(event.message || 'The background worker script failed to load.')),
      { once: true },
    )
    timer = setTimeout(
      () => reject(new WorkerLoadError(`The background worker did not answer within ${HELLO_TIMEOUT_MS / 1000} s.`)),
      HELLO_TIMEOUT_MS,
    )
  })
  // Later worker errors (after a good hello) must not surface as unhandled rejections of this promise.
  failed.catch(() => {})
  let hello: { protocol: number; version: string }
  try {
    hello = await Promise.race([api.hello(), failed])
  } catch (error) {
    worker.terminate()
    throw error
  } finally {
    clearTimeout(timer)
  }
  if (hello.protocol !== PROTOCOL_VERSION) {
    worker.terminate()
    throw new ProtocolMismatchError(hello.protocol)
  }
  const channel = new BroadcastChannel(EVENT_CHANNEL)
  const handlers = new Set<(event: SessionEvent) => void>()
  const foreignHandlers = new Set<(protocol: number) => void>()
  channel.onmessage = (message) => {
    const read = readEnvelope(message.data)
    if (!read) return
    if ('foreign' in read) for (const handler of foreignHandlers) handler(read.foreign)
    else for (const event of read.events) for (const handler of handlers) handler(event)
  }
  return {
    api,
    listen(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    onForeignProtocol(handler) {
      foreignHandlers.add(handler)
    },
  }
}

/** Comlink needs callbacks wrapped to cross into the worker. */
export const callback = <T extends (...args: never[]) => unknown>(fn: T): T => Comlink.proxy(fn)
