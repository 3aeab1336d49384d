/** A server a command started in the container, reachable at `url` (a StackBlitz-hosted origin) for a preview pane. */
export interface PreviewServer {
  port: number
  url: string
}

export type PreviewEvent = ({ type: 'opened' } | { type: 'closed' }) & PreviewServer

/** The slice of the WebContainer SDK this needs; a `WebContainer` is one. */
export interface PreviewSource {
  on(event: 'port', listener: (port: number, type: 'open' | 'close', url: string) => void): () => void
  on(event: 'server-ready', listener: (port: number, url: string) => void): () => void
}

export interface PreviewEmitter {
  /** The servers open now, oldest first (the last is the newest, which a preview pane shows by default). */
  servers(): PreviewServer[]
  /** Called on every change from now on (read `servers()` for the current ones). Returns an unsubscribe. */
  subscribe(listener: (event: PreviewEvent) => void): () => void
  /** Stops listening to the container. */
  dispose(): void
}

/**
 * Turns the container's `port` and `server-ready` events into one opened/closed stream. A server counts as opened at
 * whichever comes first (a port that opens is already listening; `server-ready` also arrives for servers whose port
 * event was missed), once per port and url; it closes when its port does.
 */
export function watchPreviews(container: PreviewSource): PreviewEmitter {
  const open = new Map<number, string>()
  const listeners = new Set<(event: PreviewEvent) => void>()

  const emit = (event: PreviewEvent) => {
    for (const listener of listeners) listener(event)
  }
  const opened = (port: number, url: string) => {
    if (open.get(port) === url) return
    // Deleted first, so a port that comes back with a new url counts as the newest.
    open.delete(port)
    open.set(port, url)
    emit({ type: 'opened', port, url })
  }

  const stops = [
    container.on('port', (port, type, url) => {
      if (type === 'open') return opened(port, url)
      const known = open.get(port)
      if (known === undefined) return
      open.delete(port)
      emit({ type: 'closed', port, url: known })
    }),
    container.on('server-ready', opened),
  ]

  return {
    servers: () => [...open].map(([port, url]) => ({ port, url })),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      for (const stop of stops) stop()
      listeners.clear()
    },
  }
}
