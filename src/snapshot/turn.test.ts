import { describe, expect, it } from 'vitest'
import type { Part } from '../core/schema'
import { summarizeDiffs } from '../core/diff-summary'
import { createStepSnapshots } from './patch'
import { makeProject } from './testing/project'
import { sessionDiffs, turnDiffs, turnRange } from './turn'

const tokens = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }
const base = { sessionID: 'ses_1', messageID: 'msg_1' }

describe('turnRange', () => {
  it('spans the first step start to the last step finish', () => {
    const parts: Part[] = [
      { ...base, id: 'prt_1', type: 'step-start', snapshot: 's0' },
      { ...base, id: 'prt_2', type: 'step-finish', reason: 'tool-calls', snapshot: 's1', cost: 0, tokens },
      { ...base, id: 'prt_3', type: 'step-start', snapshot: 's1' },
      { ...base, id: 'prt_4', type: 'step-finish', reason: 'stop', snapshot: 's2', cost: 0, tokens },
    ]
    expect(turnRange(parts)).toEqual({ from: 's0', to: 's2' })
    expect(turnRange(parts.slice(0, 1))).toBeUndefined()
  })
})

describe('turn and session diffs', () => {
  async function step(project: ReturnType<typeof makeProject>, change: () => Promise<void>) {
    const steps = createStepSnapshots(project.track)
    const before = await steps.beginStep()
    project.tick(5)
    await change()
    return { before, ...(await steps.endStep(before)) }
  }

  it('shows a file changed twice in a turn once, net', async () => {
    const project = makeProject({ 'a.txt': 'one\ntwo\nthree\n' })
    const first = await step(project, () => project.workspace.writeFile('a.txt', 'one\n2\nthree\n'))
    const second = await step(project, () => project.workspace.writeFile('a.txt', 'one\n2\nthree\nfour\n'))
    const diffs = await turnDiffs({ store: project.store, from: first.before, to: second.after })
    expect(diffs).toEqual([
      {
        file: 'a.txt',
        status: 'modified',
        additions: 2,
        deletions: 1,
        patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n',
      },
    ])
  })

  it('sums a session net per file: first appearance to last change, changes undone left out', async () => {
    const project = makeProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    const turn1 = await step(project, async () => {
      await project.workspace.writeFile('a.txt', 'a1\n')
      await project.workspace.writeFile('b.txt', 'b1\n')
    })
    const turn2 = await step(project, async () => {
      await project.workspace.writeFile('a.txt', 'a2\nmore\n')
      await project.workspace.writeFile('b.txt', 'b\n')
      await project.workspace.writeFile('c.txt', 'c\n')
    })
    const diffs = await sessionDiffs({
      store: project.store,
      turns: [
        { from: turn1.before, to: turn1.after },
        { from: turn2.before, to: turn2.after },
      ],
    })
    expect(diffs.map(({ file, status, additions, deletions }) => ({ file, status, additions, deletions }))).toEqual([
      { file: 'a.txt', status: 'modified', additions: 2, deletions: 1 },
      { file: 'c.txt', status: 'added', additions: 1, deletions: 0 },
    ])
    expect(summarizeDiffs(diffs)).toEqual({ additions: 3, deletions: 1, files: 2 })
  })
})
