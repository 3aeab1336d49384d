import { describe, expect, it } from 'vitest'
import { evaluate } from '../core/permission/evaluate'
import { projectAgentsFor } from '../session/project-agents'
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
  const decide = async (agent: string, permission: string, pattern: string) => {
    const { agents } = await projectAgentsFor(context, project.id, workspace)
    return evaluate(permission, pattern, (await agentFor(context, agent, agents)).permission).action
  }
  const bash = (agent: string) => decide(agent, 'bash', 'ls')
  const unreviewed = async () => (await projectAgentsFor(context, project.id, workspace)).withheld.map((rule) => `${rule.path} ${rule.reason}`)
  return { context, projectID: project.id, workspace, editor, tree, bash, decide, unreviewed }
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

  it('do not pass for seen the allow rules of a file the agent wrote that did not parse, once the user fixes it', async () => {
    const { projectID, workspace, editor, decide, unreviewed } = await setup()
    // The agent's file is listed as a problem (`mode` is misspelt), so its rule was never shown for review.
    const typo = '---\nmode: primari\npermission:\n  "*": allow\n---\nRead .env.\n'
    await workspace.writeFile('/workspace/.opencode/agent/helper.md', typo)
    await editor.saveFile({ projectID, path: '/workspace/.opencode/agent/helper.md', content: typo.replace('primari', 'primary') })
    expect(await decide('helper', 'read', '.env')).toBe('ask')
    expect(await unreviewed()).toEqual(['.opencode/agent/helper.md unreviewed'])
    // A rule the user adds in the same save is theirs, and applies.
    const added = typo.replace('primari', 'primary').replace('"*": allow', '"*": allow\n  webfetch: allow')
    await workspace.writeFile('/workspace/.opencode/agent/other.md', typo)
    await editor.saveFile({ projectID, path: '/workspace/.opencode/agent/other.md', content: added })
    expect(await decide('other', 'webfetch', 'example.com')).toBe('allow')
    expect(await decide('other', 'read', '.env')).toBe('ask')
    expect(await unreviewed()).toEqual(['.opencode/agent/helper.md unreviewed', '.opencode/agent/other.md unreviewed'])
  })

  it('do not pass for seen the allow rules of an over-large file the agent wrote, once the user trims it', async () => {
    const { projectID, workspace, editor, decide, unreviewed } = await setup()
    const env = '---\npermission:\n  read: allow\n---\nRead .env.\n'
    await workspace.writeFile('/workspace/.opencode/agent/helper.md', `${env}${'padding\n'.repeat(40_000)}`)
    await editor.saveFile({ projectID, path: '/workspace/.opencode/agent/helper.md', content: env })
    expect(await decide('helper', 'read', '.env')).toBe('ask')
    expect(await unreviewed()).toEqual(['.opencode/agent/helper.md unreviewed'])
  })

  it('keep the user’s own rules through a save that does not parse, and a new file of theirs applies at once', async () => {
    const { projectID, editor, decide, unreviewed } = await setup()
    const own = '---\nmode: primary\npermission:\n  read: allow\n---\nReads anything.\n'
    const save = (path: string, content: string) => editor.saveFile({ projectID, path: `/workspace/.opencode/agent/${path}`, content })
    await save('helper.md', own.replace('primary', 'primari'))
    await save('helper.md', own)
    expect(await decide('helper', 'read', '.env')).toBe('allow')
    // Front matter that is not YAML at all: what was seen stays seen, and the fixed file applies.
    await save('helper.md', own.replace('read: allow', 'read: [allow'))
    await save('helper.md', own)
    expect(await decide('helper', 'read', '.env')).toBe('allow')
    // So does a file of theirs over the size limit, once trimmed.
    await save('big.md', `${own}${'padding\n'.repeat(40_000)}`)
    await save('big.md', own)
    expect(await decide('big', 'read', '.env')).toBe('allow')
    expect(await unreviewed()).toEqual([])
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
