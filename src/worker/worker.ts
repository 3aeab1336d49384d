import * as Comlink from 'comlink'
import { broadcastCommands } from './command-channel'
import { makeEventOutbox } from './event-outbox'
import { makeModelSource } from './model-source'
import { openDatabase } from './open-database'
import { EVENT_CHANNEL, PROTOCOL_VERSION, type EventEnvelope } from './protocol'
import { createService } from './service'
import { makeLocalLocks, type Locks } from './session-runner'
import { toWire } from './wire'

// Every tab's UI (including this worker's own) listens on the channel, so one post reaches all of them.
const channel = new BroadcastChannel(EVENT_CHANNEL)
const outbox = makeEventOutbox((event) => channel.postMessage({ protocol: PROTOCOL_VERSION, event } satisfies EventEnvelope))

// Web Locks make one runner per session across tabs; without them (very old browsers) each tab is on its own.
const locks: Locks = (navigator as Navigator & { locks?: Locks }).locks ?? makeLocalLocks()

const service = createService({
  open: () => openDatabase(),
  emit: outbox.emit,
  version: __APP_VERSION__,
  models: makeModelSource,
  locks,
  commands: broadcastCommands(),
})

Comlink.expose(toWire(service))
