import { describe, expect, it } from 'vitest'
import { createStepSnapshots } from './patch'
import { makeProject } from './testing/project'

describe('step snapshots', () => {
  it('reports no patch for a step that changed nothing', async () => {
    const project = makeProject({ 'a.txt': 'a\n' })
    const steps = createStepSnapshots(project.track)
    const before = await steps.beginStep()
    expect(await steps.endStep(before)).toEqual({ after: before, patch: undefined })
  })

  it('lists the files a step changed against the pre-step snapshot', async () => {
    const project = makeProject({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' })
    const steps = createStepSnapshots(project.track)
    const before = await steps.beginStep()
    project.tick(5)
    await project.workspace.writeFile('a.txt', 'changed\n')
    await project.workspace.remove('b.txt')
    await project.workspace.writeFile('d.txt', 'new\n')
    const end = await steps.endStep(before)
    expect(end.patch).toEqual({ hash: before, files: ['a.txt', 'b.txt', 'd.txt'] })
    expect(end.after).not.toBe(before)
    expect(await project.db.snapshots.get(end.after)).toBeDefined()
  })
})
