import { describe, expect, it } from 'vitest'
import { evaluate } from '../core/permission/evaluate'
import { projectAgentsFor } from '../runtime/project-agents'
import { agentFor } from '../store/agent-settings'
import { ensureDefaultProject, setProjectTrust } from '../store/project-store'
import { makeTestContext } from '../testing/test-context'
import { makeTestWorkspace } from '../tools/testing/tool-context'
import { editorHandlers } from './editor-handlers'
import { fileHandlers } from './file-handlers'

const HELPER = '---\nmode: primary\npermission:\n  bash: allow\n---\nHelps.\n'

/** The user's own trusted project (as the app's first one is), with the editor's and the Files panel's handlers. */
async function setup(files: Record<string, string> = {}) {
  const { context } = makeTestContext()
  const project = await ensureDefaultProject(context)
  const workspace = makeTestWorkspace(files)
  const editor = editorHandlers(() => context, async () => workspace)
  const tree = fileHandlers(() => context, async () => workspace)
  /** What `agent` decides for `bash ls` with the project's files as its trust lets them count. */
  const bash = async (agent: string) => {
    const { agents } = await projectAgentsFor(context, project.id, workspace)
    return evaluate('bash', 'ls', (await agentFor(context, agent, agents)).permission).action
  }
  const unreviewed = async () => (await projectAgentsFor(context, project.id, workspace)).withheld.map((rule) => `${rule.path} ${rule.reason}`)
  return { context, projectID: project.id, workspace, editor, tree, bash, unreviewed }
}

describe('agent files the user writes through the app', () => {
  it('apply at once when saved in the editor, while the same file written by a tool waits for review', async () => {
    const { projectID, workspace, editor, bash, unreviewed } = await setup()
    // A tool writes through the workspace, around the user's handlers.
    await workspace.writeFile('/workspace/.opencode/agent/tool.md', HELPER)
    expect(await unreviewed()).toEqual(['.opencode/agent/tool.md unreviewed'])
    await editor.saveFile({ projectID, path: '/workspace/.opencode/agent/helper.md', content: HELPER })
    expect(await bash('helper')).toBe('allow')
    expect(await unreviewed()).toEqual(['.opencode/agent/tool.md unreviewed'])
  })

  it('keep what the user had seen through a rename, a move, and a delete undone; a tool’s file moved by the user still waits', async () => {
    const { projectID, workspace, editor, tree, bash, unreviewed } = await setup()
    await editor.saveFile({ projectID, path: '/workspace/.opencode/agent/helper.md', content: HELPER })
    await tree.renameFile({ projectID, path: '/workspace/.opencode/agent/helper.md', name: 'aide.md' })
    expect(await bash('aide')).toBe('allow')
    await tree.createFolder({ projectID, directory: '/workspace/.opencode/agent', name: 'team' })
    await tree.moveFile({ projectID, path: '/workspace/.opencode/agent/aide.md', directory: '/workspace/.opencode/agent/team' })
    expect(await bash('team/aide')).toBe('allow')

    const deleted = await tree.deleteFile({ projectID, path: '/workspace/.opencode/agent/team' })
    // The agent writing the same file again gets no standing from the user's old review.
    await workspace.writeFile('/workspace/.opencode/agent/team/aide.md', HELPER)
    expect(await unreviewed()).toEqual(['.opencode/agent/team/aide.md unreviewed'])
    await workspace.remove('/workspace/.opencode/agent/team', { recursive: true })
    await tree.restoreDeleted({ token: deleted.token })
    expect(await bash('team/aide')).toBe('allow')

    await workspace.writeFile('/workspace/.opencode/agent/tool.md', HELPER)
    await tree.renameFile({ projectID, path: '/workspace/.opencode/agent/tool.md', name: 'renamed.md' })
    expect(await unreviewed()).toEqual(['.opencode/agent/renamed.md unreviewed'])
  })

  it('count for nothing in an untrusted project, and a project trusted since counts only what its dialog showed', async () => {
    const { context, projectID, tree, unreviewed } = await setup()
    await setProjectTrust(context, projectID, false)
    await tree.writeUploaded({ projectID, directory: '/workspace', files: [{ path: '.opencode/agent/helper.md', data: new TextEncoder().encode(HELPER) }] })
    expect((await context.db.projects.get(projectID))?.trust).toEqual({ type: 'untrusted' })
    await setProjectTrust(context, projectID, true)
    expect(await unreviewed()).toEqual(['.opencode/agent/helper.md unreviewed'])
  })
})
