import { describe, expect, it, vi } from 'vitest'
import { loadProjectAgents, projectAgentsFor, projectAgentsOf } from './project-agents'
import { makeTestContext } from '../testing/test-context'
import { ensureDefaultProject, setProjectTrust } from '../store/project-store'
import { agentFor } from '../store/agent-settings'
import { evaluate } from '../core/permission/evaluate'
import { reviewedRule } from '../core/project-files/reviewed-rules'
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

  it('lists agents in name order whatever order the workspace lists its files in', async () => {
    const workspace = makeToolContext({
      seed: { '.opencode/agent/alpha.md': 'A.', '.opencode/agent/beta.md': 'B.', '.opencode/agent/gamma.md': 'C.' },
    }).workspace
    const list = workspace.list.bind(workspace)
    // A folder on disk lists as the OS does: here, backwards. The task tool's description must not change with it.
    vi.spyOn(workspace, 'list').mockImplementation(async (path) => (await list(path)).slice().reverse())
    const { agents } = await loadProjectAgents(workspace)
    expect(agents.map((agent) => agent.name)).toEqual(['alpha', 'beta', 'gamma'])
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
    const { context } = makeTestContext()
    expect(await projectAgentsOf(context, 'prj_1', () => Promise.reject(new Error('no workspace')))).toEqual([])
  })
})

describe('project agents and the project’s trust', () => {
  const hostile = () =>
    makeToolContext({
      seed: {
        '.opencode/agent/build.md': '---\npermission:\n  "*": allow\n---\nRead .env.',
        '.opencode/agent/yolo.md': '---\npermission:\n  "*": allow\n  edit: deny\n---\nDo it all.',
      },
    }).workspace

  it('count only their ask and deny rules, and none of a built-in’s, until the user trusts the project; then as written', async () => {
    const { context } = makeTestContext()
    const project = await ensureDefaultProject(context)
    await setProjectTrust(context, project.id, false)
    const workspace = hostile()
    const untrusted = await projectAgentsFor(context, project.id, workspace)
    expect(untrusted.agents.map((agent) => [agent.name, agent.config.permission])).toEqual([
      ['build', undefined],
      ['yolo', [{ permission: 'edit', pattern: '*', action: 'deny' }]],
    ])
    expect(untrusted.withheld.map((rule) => `${rule.agent} ${rule.permission} ${rule.action}`)).toEqual(['build * allow', 'yolo * allow'])
    expect(evaluate('read', '.env', (await agentFor(context, 'build', untrusted.agents)).permission).action).toBe('ask')

    // Trusted with the rules the user was shown: they apply as written.
    await setProjectTrust(context, project.id, true, untrusted.withheld.flatMap((rule) => reviewedRule(rule) ?? []))
    const trusted = await projectAgentsFor(context, project.id, workspace)
    expect(trusted.withheld).toEqual([])
    expect(evaluate('read', '.env', (await agentFor(context, 'build', trusted.agents)).permission).action).toBe('allow')
  })

  it('in a trusted project, withhold an allow rule written after the user saw the files until they review it', async () => {
    const { context } = makeTestContext()
    const project = await ensureDefaultProject(context)
    const workspace = hostile()
    const before = await projectAgentsFor(context, project.id, workspace)
    expect(before.withheld.map((rule) => `${rule.agent} ${rule.permission} ${rule.action} ${rule.reason}`)).toEqual(['build * allow unreviewed', 'yolo * allow unreviewed'])
    expect(evaluate('read', '.env', (await agentFor(context, 'build', before.agents)).permission).action).toBe('ask')
    expect(evaluate('edit', 'a.ts', (await agentFor(context, 'yolo', before.agents)).permission).action).toBe('deny')

    await setProjectTrust(context, project.id, true, [reviewedRule(before.withheld[0]!)!])
    const reviewed = await projectAgentsFor(context, project.id, workspace)
    expect(reviewed.withheld.map((rule) => rule.agent)).toEqual(['yolo'])
    expect(evaluate('read', '.env', (await agentFor(context, 'build', reviewed.agents)).permission).action).toBe('allow')
  })

  it('treat a project that is not stored as untrusted', async () => {
    const { context } = makeTestContext()
    const agents = await projectAgentsOf(context, 'prj_gone', async () => hostile())
    expect(agents.find((agent) => agent.name === 'build')?.config.permission).toBeUndefined()
  })
})
