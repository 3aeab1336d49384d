import { describe, expect, it } from 'vitest'
import { watchPreviews, type PreviewEvent, type PreviewSource } from './preview'

type PortListener = (port: number, type: 'open' | 'close', url: string) => void
type ReadyListener = (port: number, url: string) => void

function fakeSource() {
  const ports = new Set<PortListener>()
  const ready = new Set<ReadyListener>()
  const source = {
    on(event: 'port' | 'server-ready', listener: PortListener | ReadyListener) {
      const set = (event === 'port' ? ports : ready) as Set<typeof listener>
      set.add(listener)
      return () => void set.delete(listener)
    },
  } as PreviewSource
  return {
    source,
    port: (port: number, type: 'open' | 'close', url: string) => ports.forEach((listener) => listener(port, type, url)),
    ready: (port: number, url: string) => ready.forEach((listener) => listener(port, url)),
    listeners: () => ports.size + ready.size,
  }
}

describe('watchPreviews', () => {
  it('opens a server once, whichever event comes first, and closes it with its port', () => {
    const fake = fakeSource()
    const previews = watchPreviews(fake.source)
    const events: PreviewEvent[] = []
    previews.subscribe((event) => events.push(event))
    fake.port(5173, 'open', 'https://a--5173.local-credentialless.webcontainer-api.io')
    fake.ready(5173, 'https://a--5173.local-credentialless.webcontainer-api.io')
    fake.ready(3000, 'https://a--3000.local-credentialless.webcontainer-api.io')
    expect(previews.servers().map((server) => server.port)).toEqual([5173, 3000])
    fake.port(5173, 'close', '')
    fake.port(8080, 'close', '')
    expect(events).toEqual([
      { type: 'opened', port: 5173, url: 'https://a--5173.local-credentialless.webcontainer-api.io' },
      { type: 'opened', port: 3000, url: 'https://a--3000.local-credentialless.webcontainer-api.io' },
      { type: 'closed', port: 5173, url: 'https://a--5173.local-credentialless.webcontainer-api.io' },
    ])
    expect(previews.servers()).toEqual([{ port: 3000, url: 'https://a--3000.local-credentialless.webcontainer-api.io' }])
  })

  it('stops listening to the container when disposed', () => {
    const fake = fakeSource()
    const previews = watchPreviews(fake.source)
    expect(fake.listeners()).toBe(2)
    previews.dispose()
    expect(fake.listeners()).toBe(0)
  })
})
