import { createRoot } from 'solid-js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SessionEvent } from '../../core/event'
import type { ProjectTrustReport, WithheldRule } from '../../core/dto/trust'
import type { Project } from '../../core/schema'
import { createProjectTrust, type ProjectTrustApi } from './create-project-trust'

const PROJECT: Project = {
  id: 'prj_own',
  name: 'My project',
  directory: '/workspace',
  origin: { type: 'empty' },
  trust: { type: 'trusted', time: 1 },
  time: { created: 1, updated: 1 },
}
const WRITTEN: WithheldRule = { agent: 'build', path: '.opencode/agent/build.md', permission: '*', pattern: '*', action: 'allow', reason: 'unreviewed', exceptions: [] }
const report = (unreviewed: WithheldRule[]): ProjectTrustReport => ({ project: PROJECT, review: { rules: [], builtIns: [], commands: [] }, unreviewed })

const disposers: (() => void)[] = []
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
})

function make(api: ProjectTrustApi) {
  let handler: ((event: SessionEvent) => void) | undefined
  let scheduled: (() => void) | undefined
  const trust = createRoot((dispose) => {
    disposers.push(dispose)
    return createProjectTrust(
      api,
      PROJECT,
      (listener) => ((handler = listener), () => {}),
      (run) => ((scheduled = run), () => {}),
    )
  })
  return { trust, emit: (event: SessionEvent) => handler!(event), firstFrame: () => scheduled!() }
}

describe('a trusted project’s rules waiting for review', () => {
  it('are read after the first frame and again when the agent writes under .opencode', async () => {
    const projectTrust = vi.fn<ProjectTrustApi['projectTrust']>(async () => report([]))
    const { trust, emit, firstFrame } = make({ projectTrust, setProjectTrust: vi.fn() })
    expect(projectTrust).not.toHaveBeenCalled()
    firstFrame()
    await vi.waitFor(() => expect(trust.report()).toBeDefined())
    expect(trust.unreviewed()).toEqual([])

    projectTrust.mockResolvedValue(report([WRITTEN]))
    emit({ type: 'workspace.changed', projectID: PROJECT.id, change: { type: 'write', path: '/workspace/src/a.ts' } })
    emit({ type: 'workspace.changed', projectID: PROJECT.id, change: { type: 'write', path: '/workspace/.opencode/agent/build.md' } })
    await vi.waitFor(() => expect(trust.unreviewed()).toEqual([WRITTEN]))
    // Only the change under .opencode was worth reading the files again for.
    expect(projectTrust).toHaveBeenCalledTimes(2)
  })

  it('apply once allowed: exactly the rules shown are sent as reviewed', async () => {
    const setProjectTrust = vi.fn<ProjectTrustApi['setProjectTrust']>(async () => PROJECT)
    const { trust } = make({ projectTrust: async () => report([]), setProjectTrust })
    await trust.setTrusted(true, [WRITTEN, { ...WRITTEN, action: 'deny', reason: 'built-in' }])
    expect(setProjectTrust).toHaveBeenCalledWith({
      projectID: PROJECT.id,
      trusted: true,
      reviewed: [{ path: WRITTEN.path, agent: 'build', permission: '*', pattern: '*', action: 'allow', exceptions: [] }],
    })
  })
})
