import { describe, expect, it, vi } from 'vitest'

const boot = vi.fn()
vi.mock('../../../workspace/webcontainer/boot', () => ({ bootWebContainer: (...args: unknown[]) => boot(...args) }))

const { startWebContainer } = await import('./start-webcontainer')

function fakeApi(workspaceBackend: 'auto' | 'local') {
  const reasons: string[] = []
  const api = {
    getSettings: async () => ({ retryLimit: 8, workspaceBackend }),
    useLocalWorkspace: async (reason: string) => {
      reasons.push(reason)
      return { projectID: 'prj_1', backend: 'local' as const, root: '/workspace', reason }
    },
    attachWorkspace: vi.fn(),
  }
  return { api: api as never, reasons, attach: api.attachWorkspace }
}

describe('starting WebContainer from the page', () => {
  it('does not even try when the user chose the offline workspace, and says so', async () => {
    boot.mockReset()
    const { api, reasons } = fakeApi('local')
    const started = await startWebContainer(api)
    expect(boot).not.toHaveBeenCalled()
    expect(started.info.backend).toBe('local')
    expect(reasons[0]).toMatch(/turned off in Settings/)
  })

  it('falls back with the boot failure in words when WebContainer cannot start', async () => {
    boot.mockReset()
    boot.mockResolvedValue({ status: 'failed', reason: 'timeout', message: 'StackBlitz could not be reached within 20 s; using the offline workspace.' })
    const { api, reasons, attach } = fakeApi('auto')
    const started = await startWebContainer(api)
    expect(boot).toHaveBeenCalledOnce()
    expect(attach).not.toHaveBeenCalled()
    expect(started.info).toMatchObject({ backend: 'local', reason: reasons[0] })
    expect(reasons[0]).toMatch(/could not be reached within 20 s/)
  })
})
