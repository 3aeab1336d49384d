import * as Comlink from 'comlink'
import { openDatabase } from './open-database'
import { EVENT_CHANNEL, PROTOCOL_VERSION, type EventEnvelope } from './protocol'
import { createService } from './service'
import { toWire } from './wire'

// Every tab's UI (including this worker's own) listens on the channel, so one post reaches all of them.
const channel = new BroadcastChannel(EVENT_CHANNEL)

const service = createService({
  open: () => openDatabase(),
  emit: (event) => channel.postMessage({ protocol: PROTOCOL_VERSION, event } satisfies EventEnvelope),
  version: __APP_VERSION__,
})

Comlink.expose(toWire(service))
