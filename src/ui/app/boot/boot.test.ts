import { describe, expect, it, vi } from 'vitest'
import type { ClientApi, StartResult } from '../../../core/protocol'
import type { WorkerConnection } from '../../worker-client'
import { boot } from './boot'

function connection(start: () => Promise<StartResult>): WorkerConnection {
  return { api: { start } as unknown as ClientApi, listen: () => () => {}, onForeignProtocol() {} }
}

const project = { id: 'prj_1', name: 'My project', directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } } as const

describe('boot', () => {
  it('is ready when the worker starts', async () => {
    const outcome = await boot(async () => connection(async () => ({ status: 'ready', project, version: '0.1.0' })))
    expect(outcome).toMatchObject({ status: 'ready', project, version: '0.1.0' })
  })

  it('passes storage problems on with the connection, so a reset can use it', async () => {
    const problem = { type: 'corrupt', message: 'broken', detail: 'x' } as const
    const outcome = await boot(async () => connection(async () => ({ status: 'failed', problem })))
    expect(outcome.status).toBe('failed')
    if (outcome.status !== 'failed') return
    expect(outcome.failure).toEqual({ kind: 'storage', problem })
    expect(outcome.connection).toBeDefined()
  })

  it('turns a failed connect or a throwing start into a failure, never a rejection', async () => {
    const mismatch = Object.assign(new Error('protocols differ'), { name: 'ProtocolMismatchError' })
    await expect(boot(() => Promise.reject(mismatch))).resolves.toMatchObject({
      status: 'failed',
      failure: { kind: 'protocol' },
    })
    await expect(
      boot(async () =>
        connection(() => {
          throw new Error('worker died')
        }),
      ),
    ).resolves.toMatchObject({ status: 'failed', failure: { kind: 'worker' } })
  })

  it('says storage is slow once it has been opening a while, and goes on waiting for it', async () => {
    vi.useFakeTimers()
    try {
      let open: (result: StartResult) => void = () => {}
      const slow = vi.fn()
      const outcome = boot(async () => connection(() => new Promise((resolve) => (open = resolve))), { onSlowStorage: slow, slowAfterMs: 1_000 })
      await vi.advanceTimersByTimeAsync(999)
      expect(slow).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(60_000)
      expect(slow).toHaveBeenCalledTimes(1)
      open({ status: 'ready', project, version: '0.1.0' })
      await expect(outcome).resolves.toMatchObject({ status: 'ready' })
    } finally {
      vi.useRealTimers()
    }
  })

  it('says nothing of a storage that opens at once', async () => {
    vi.useFakeTimers()
    try {
      const slow = vi.fn()
      await boot(async () => connection(async () => ({ status: 'ready', project, version: '0.1.0' })), { onSlowStorage: slow, slowAfterMs: 1_000 })
      await vi.advanceTimersByTimeAsync(5_000)
      expect(slow).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })
})
