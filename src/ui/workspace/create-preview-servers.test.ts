import { createRoot, createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import type { PreviewEmitter, PreviewEvent, PreviewServer } from '../../workspace/webcontainer/preview'
import { createPreviewServers } from './create-preview-servers'

function fakeEmitter(initial: PreviewServer[] = []) {
  let open = [...initial]
  const listeners = new Set<(event: PreviewEvent) => void>()
  const emitter: PreviewEmitter = {
    servers: () => open,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose: () => listeners.clear(),
  }
  return {
    emitter,
    listeners,
    open(server: PreviewServer) {
      open = [...open, server]
      for (const listener of listeners) listener({ type: 'opened', ...server })
    },
  }
}

describe('preview servers as a signal', () => {
  it('starts empty, follows the emitter once there is one, and lets go of it', () => {
    createRoot((dispose) => {
      const [emitter, setEmitter] = createSignal<PreviewEmitter>()
      const servers = createPreviewServers(emitter)
      expect(servers()).toEqual([])
      const fake = fakeEmitter([{ port: 3000, url: 'https://a.example' }])
      setEmitter(fake.emitter)
      expect(servers()).toEqual([{ port: 3000, url: 'https://a.example' }])
      fake.open({ port: 5173, url: 'https://b.example' })
      expect(servers().map((server) => server.port)).toEqual([3000, 5173])
      setEmitter(undefined)
      expect(servers()).toEqual([])
      expect(fake.listeners.size).toBe(0)
      dispose()
    })
  })
})
