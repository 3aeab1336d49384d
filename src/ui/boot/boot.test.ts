import { describe, expect, it } from 'vitest'
import type { ClientApi, StartResult } from '../../core/protocol'
import type { WorkerConnection } from '../worker-client'
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
})
