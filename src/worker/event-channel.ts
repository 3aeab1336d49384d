import type { SessionEvent } from '../core/event'
import { PROTOCOL_VERSION, type EventEnvelope } from '../core/protocol'

/**
 * This worker's end of the event channel: what it posts reaches every tab's UI and the other tabs' workers, and it
 * hears what the other tabs' workers post. One BroadcastChannel object does both, because a channel never delivers
 * a post to the object that sent it: a second object for listening, in this same worker, was handed (and
 * deserialized, in a task of its own) every event this worker posted, six or seven a step (issue 32).
 */
export function openEventChannel(name: string, hear: (event: SessionEvent) => void): { post(events: SessionEvent[]): void; close(): void } {
  const channel = new BroadcastChannel(name)
  channel.onmessage = (message) => {
    const envelope = message.data as Partial<EventEnvelope>
    if (envelope?.protocol !== PROTOCOL_VERSION || !Array.isArray(envelope.events)) return
    for (const event of envelope.events) hear(event)
  }
  return { post: (events) => channel.postMessage({ protocol: PROTOCOL_VERSION, events } satisfies EventEnvelope), close: () => channel.close() }
}
