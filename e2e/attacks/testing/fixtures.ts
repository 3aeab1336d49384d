import { expect, test as base } from '../../testing/fixtures'
import { startContactListener, type ContactListener } from './contact-listener'

/**
 * The attack corpus's test: every test gets `contacts`, a host on 127.0.0.1 that counts each TCP connection and UDP
 * datagram, and fails at its end on any contact the test did not `allow` (what the user granted in the UI).
 */
export const test = base.extend<{ contacts: ContactListener }>({
  contacts: async ({}, use) => {
    const listener = await startContactListener()
    try {
      await use(listener)
      expect(listener.unexpected(), `contacts with ${listener.origin} the user did not allow`).toEqual([])
    } finally {
      await listener.close()
    }
  },
})

export { expect }
