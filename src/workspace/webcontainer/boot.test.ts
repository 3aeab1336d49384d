import type { WebContainer } from '@webcontainer/api'
import { describe, expect, it, vi } from 'vitest'
import type { WebContainerEnvironment } from './capability'
import { makeWebContainerBooter } from './boot'

const environment: WebContainerEnvironment = {
  crossOriginIsolated: true,
  hasSharedArrayBuffer: true,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  online: true,
}

const fakeContainer = (teardown = vi.fn()) => ({ teardown }) as unknown as WebContainer

describe('bootWebContainer', () => {
  it('gives up on a boot that never settles (StackBlitz unreachable)', async () => {
    const boot = makeWebContainerBooter()
    const started = Date.now()
    const result = await boot({ timeoutMs: 50, environment, boot: () => new Promise<never>(() => {}) })
    expect(result).toEqual({
      status: 'failed',
      reason: 'timeout',
      message: 'StackBlitz could not be reached within 0.05 s; using the offline workspace.',
    })
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('tears down a container that arrives after the timeout', async () => {
    const boot = makeWebContainerBooter()
    const teardown = vi.fn()
    let finish!: (container: WebContainer) => void
    const late = new Promise<WebContainer>((resolve) => (finish = resolve))
    expect(await boot({ timeoutMs: 10, environment, boot: () => late })).toMatchObject({ reason: 'timeout' })
    finish(fakeContainer(teardown))
    await late
    await vi.waitFor(() => expect(teardown).toHaveBeenCalledOnce())
  })

  it('reports a boot error with its message', async () => {
    const boot = makeWebContainerBooter()
    const result = await boot({ environment, boot: () => Promise.reject(new Error('The iframe refused to load')) })
    expect(result).toEqual({
      status: 'failed',
      reason: 'error',
      message: 'WebContainer failed to start (The iframe refused to load); using the offline workspace.',
    })
  })

  it('reports a boot that throws synchronously', async () => {
    const boot = makeWebContainerBooter()
    const result = await boot({
      environment,
      boot: () => {
        throw new Error('window is not defined')
      },
    })
    expect(result).toMatchObject({ status: 'failed', reason: 'error' })
  })

  it('checks the capability before loading anything', async () => {
    const boot = makeWebContainerBooter()
    const load = vi.fn(async () => fakeContainer())
    const result = await boot({ environment: { ...environment, crossOriginIsolated: false }, boot: load })
    expect(result).toMatchObject({ status: 'failed', reason: 'not-isolated' })
    expect(load).not.toHaveBeenCalled()
    // No boot was started, so a later call (the page came back online, say) may still try.
    expect(await boot({ environment, boot: load })).toMatchObject({ status: 'ready' })
    expect(load).toHaveBeenCalledOnce()
  })

  it('boots once per page and shares the outcome', async () => {
    const boot = makeWebContainerBooter()
    const container = fakeContainer()
    const load = vi.fn(async () => container)
    const [first, second] = await Promise.all([boot({ environment, boot: load }), boot({ environment, boot: load })])
    const third = await boot({ environment, boot: load })
    expect(first).toEqual({ status: 'ready', container })
    expect(second).toBe(first)
    expect(third).toBe(first)
    expect(load).toHaveBeenCalledOnce()
  })

  it('lets one caller stop waiting without cancelling the shared boot', async () => {
    const boot = makeWebContainerBooter()
    const container = fakeContainer()
    let finish!: (container: WebContainer) => void
    const load = vi.fn(() => new Promise<WebContainer>((resolve) => (finish = resolve)))
    const controller = new AbortController()
    const waiting = boot({ environment, boot: load, signal: controller.signal })
    const patient = boot({ environment, boot: load })
    controller.abort()
    expect(await waiting).toMatchObject({ status: 'failed', reason: 'aborted' })
    finish(container)
    expect(await patient).toEqual({ status: 'ready', container })
    expect(load).toHaveBeenCalledOnce()
  })
})
