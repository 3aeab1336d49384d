import { describe, expect, it, vi } from 'vitest'
import { loadProjectAgents, projectAgentsOf } from './project-agents'
import { makeToolContext } from '../tools/testing/tool-context'

const project = () =>
  makeToolContext({
    seed: {
      '.opencode/agent/reviewer.md': '---\ndescription: Reviews\nmode: subagent\n---\nYou review.',
      '.opencode/agent/team/docs.md': 'You write docs.',
      '.opencode/agent/broken.md': '---\nmode: boss\n---\nHi',
      '.opencode/agents/reviewer.md': '---\ndescription: Reviews, from the plural folder\n---\nYou review twice.',
      '.opencode/agent/notes.txt': 'not an agent',
    },
  }).workspace

describe('project agents', () => {
  it('reads both folders, the plural one winning by name, and lists broken files apart', async () => {
    const { agents, problems } = await loadProjectAgents(project())
    expect(agents.map((agent) => [agent.name, agent.path, agent.config.prompt])).toEqual([
      ['reviewer', '.opencode/agents/reviewer.md', 'You review twice.'],
      ['team/docs', '.opencode/agent/team/docs.md', 'You write docs.'],
    ])
    expect(problems).toEqual([{ name: 'broken', path: '.opencode/agent/broken.md', problem: expect.stringContaining('line 2: `mode` must be') }])
  })

  it('reads a file again only once it changed, and forgets a deleted one', async () => {
    const workspace = project()
    const read = vi.spyOn(workspace, 'readFile')
    await loadProjectAgents(workspace)
    const first = read.mock.calls.length
    await loadProjectAgents(workspace)
    expect(read.mock.calls.length).toBe(first)
    await workspace.writeFile(`${workspace.root}/.opencode/agents/reviewer.md`, '---\nmode: primary\n---\nYou review, changed and longer.')
    const { agents } = await loadProjectAgents(workspace)
    expect(read.mock.calls.length).toBe(first + 1)
    expect(agents.find((agent) => agent.name === 'reviewer')?.config).toMatchObject({ mode: 'primary', prompt: 'You review, changed and longer.' })
    await workspace.remove(`${workspace.root}/.opencode/agents/reviewer.md`)
    expect((await loadProjectAgents(workspace)).agents.find((agent) => agent.name === 'reviewer')?.path).toBe('.opencode/agent/reviewer.md')
  })

  it('has none for a workspace that does not open', async () => {
    expect(await projectAgentsOf(() => Promise.reject(new Error('no workspace')))).toEqual([])
  })
})
