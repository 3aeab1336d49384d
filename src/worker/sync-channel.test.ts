import { afterEach, describe, expect, it, vi } from 'vitest'
import { PROTOCOL_VERSION } from '../core/protocol'
import { broadcastSync, SYNC_CHANNEL } from './sync-channel'
import type { SyncMessage } from './sync-service'

const opened: Array<{ close(): void }> = []
afterEach(() => {
  for (const channel of opened.splice(0)) channel.close()
})

describe("sync's channel between tabs", () => {
  it("carries pause, resume and Sync now to the other tabs' workers, and ignores what it cannot read", async () => {
    const here = broadcastSync()
    const there = broadcastSync()
    opened.push(here, there)
    const heard: SyncMessage[] = []
    const heardHere: SyncMessage[] = []
    there.listen((message) => heard.push(message))
    here.listen((message) => heardHere.push(message))
    const stranger = new BroadcastChannel(SYNC_CHANNEL)
    opened.push(stranger)
    stranger.postMessage({ protocol: PROTOCOL_VERSION - 1, type: 'now' })
    stranger.postMessage({ protocol: PROTOCOL_VERSION, type: 'format the disk' })
    here.post({ type: 'changed' })
    here.post({ type: 'now' })
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'changed' }, { type: 'now' }]))
    // A tab's own posts do not come back to it.
    expect(heardHere).toEqual([])
  })
})
