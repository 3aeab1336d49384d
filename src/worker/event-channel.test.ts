import { afterEach, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../core/event'
import { openEventChannel } from './event-channel'

const opened: { close(): void }[] = []
afterEach(() => opened.splice(0).forEach((channel) => channel.close()))

/** A listener of the channel that is not a worker: a tab's UI. */
function page(name: string) {
  const heard: unknown[] = []
  const channel = new BroadcastChannel(name)
  channel.onmessage = (message) => heard.push(message.data)
  opened.push(channel)
  return heard
}

describe('the worker event channel', () => {
  it('hears the other tabs’ workers but not its own posts, which every page gets once', async () => {
    const name = `events-${Math.random()}`
    const heard = { one: [] as SessionEvent[], two: [] as SessionEvent[] }
    const one = openEventChannel(name, (event) => heard.one.push(event))
    const two = openEventChannel(name, (event) => heard.two.push(event))
    opened.push(one, two)
    const ui = page(name)
    const idle: SessionEvent = { type: 'session.status', sessionID: 'ses_1', status: { type: 'idle' } }
    const busy: SessionEvent = { type: 'session.status', sessionID: 'ses_2', status: { type: 'busy' } }
    one.post([idle, busy])
    // One message for the batch.
    await expect.poll(() => ui.length).toBe(1)
    await expect.poll(() => heard.two).toEqual([idle, busy])
    // Another tab's post has arrived by now; our own never comes back (it used to, through a second channel object).
    expect(heard.one).toEqual([])
  })
})
