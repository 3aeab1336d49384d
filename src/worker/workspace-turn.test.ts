import { describe, expect, it, vi } from 'vitest'
import { createPermissionService } from '../session/permission'
import { changedFiles, fileDiffs, loadSnapshot, sessionDiffs, trackSnapshot } from '../snapshot'
import { ToolRegistry } from '../tools/registry'
import { createMemoryWorkspace } from '../workspace/local/testing/memory-workspace'
import { permissionGate } from './permission-handlers'
import { loadHistory } from '../store/message-store'
import { runLoop, type LoopDependencies } from '../session/loop'
import { createUserMessage } from '../store/prompt'
import type { PartOf, SessionInfo } from '../core/schema'
import { createSession } from '../store/session-store'
import { makeTestContext } from '../testing/test-context'
import { testWorkspacePorts } from '../testing/loop-dependencies'
import { scriptedModel, textReply, toolReply, type ScriptedReply } from '../testing/scripted-model'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

async function setup(replies: ScriptedReply[], files: Record<string, string> = {}) {
  const test = makeTestContext()
  const main = scriptedModel(replies)
  // Titles come from a model of their own, so they never take a reply scripted for the turn.
  const small = scriptedModel([textReply('Title'), textReply('Title')], 'mock-small')
  const workspace = createMemoryWorkspace(files, { now: () => test.advance() })
  const permissions = createPermissionService({ store: test.context, lockless: true })
  let walks = 0
  const dependencies: LoopDependencies = {
    store: test.context,
    models: {
      resolve: async (reference) => ({
        model: reference.modelID === 'mock-small' ? small.model : main.model,
        ...reference,
        limit: { context: 100_000, output: 4_000 },
        cost: { input: 1, output: 1 },
      }),
      smallModel: async () => ({ providerID: 'mock', modelID: 'mock-small' }),
    },
    tools: new ToolRegistry(),
    retryLimit: async () => 0,
    sleep: async () => {},
    setStatus: () => {},
    ...testWorkspacePorts({ now: () => test.advance(), workspace }),
    permissions: permissionGate(() => permissions),
    snapshots: {
      track: (projectID, target) => (walks++, trackSnapshot({ store: test.context, projectID, workspace: target })),
      changedFiles: async (before, after) => changedFiles(await loadSnapshot(test.context, before), await loadSnapshot(test.context, after)),
      diffs: (before, after) => fileDiffs({ store: test.context, before, after }),
      sessionDiffs: (turns) => sessionDiffs({ store: test.context, turns }),
    },
  }
  const project = { id: 'prj_00000000000000000000000001', name: 'P', directory: '/workspace', time: { created: 1, updated: 1 } }
  await test.db.projects.put(project as never)
  const session = await createSession(test.context, { projectID: project.id })
  const prompt = (text: string, agent = 'build') =>
    createUserMessage(test.context, { sessionID: session.id, parts: [{ type: 'text', text }], model: MODEL, agent })
  const run = (signal = new AbortController().signal) => runLoop(dependencies, session.id, { signal })
  const history = () => loadHistory(test.context, session.id)
  const tools = async () => (await history()).flatMap((entry) => entry.parts.filter((part): part is PartOf<'tool'> => part.type === 'tool'))
  /** Answers every question the tools ask with `reply`, as a user at the dialog would. */
  const answerAll = (reply: Parameters<typeof permissions.reply>[1]) => {
    const answered: string[] = []
    const sink = test.context.emit
    test.context.emit = (event) => {
      sink(event)
      if (event.type === 'permission.asked') {
        answered.push(event.ask.permission)
        queueMicrotask(() => void permissions.reply(event.ask.id, reply))
      }
    }
    return answered
  }
  return { ...test, workspace, session, prompt, run, history, tools, answerAll, main, walks: () => walks }
}

describe('a turn with the workspace tools', () => {
  it('reads, edits and writes files, runs a command, and records the patch and the turn diffs', async () => {
    const test = await setup(
      [
        toolReply([{ id: 'r', name: 'read', input: { filePath: 'src/app.ts' } }]),
        toolReply([
          { id: 'e', name: 'edit', input: { filePath: 'src/app.ts', oldString: 'hello', newString: 'goodbye' } },
          { id: 'w', name: 'write', input: { filePath: 'NOTES.md', content: 'done\n' } },
        ]),
        toolReply([{ id: 'b', name: 'bash', input: { command: 'cat NOTES.md', description: 'Show notes' } }]),
        textReply('All done.'),
      ],
      { 'src/app.ts': 'console.log("hello")\n' },
    )
    await test.prompt('change the greeting')
    await test.run()
    expect(await test.workspace.readText('/workspace/src/app.ts')).toBe('console.log("goodbye")\n')
    expect(await test.workspace.readText('/workspace/NOTES.md')).toBe('done\n')
    const parts = await test.tools()
    expect(parts.map((part) => [part.tool, part.state.status])).toEqual([
      ['read', 'completed'],
      ['edit', 'completed'],
      ['write', 'completed'],
      ['bash', 'completed'],
    ])
    const bash = parts.at(-1)!
    expect(bash.state.status === 'completed' && bash.state.output).toContain('done')

    const history = await test.history()
    const patches = history.flatMap((entry) => entry.parts.filter((part) => part.type === 'patch'))
    expect(patches).toHaveLength(1)
    expect(patches[0]).toMatchObject({ files: ['NOTES.md', 'src/app.ts'] })
    const user = history[0]!.info
    expect(user.role === 'user' && user.summary?.diffs.map((diff) => [diff.file, diff.additions, diff.deletions, diff.status])).toEqual([
      ['NOTES.md', 1, 0, 'added'],
      ['src/app.ts', 1, 1, 'modified'],
    ])
    const session = (await test.db.sessions.get(test.session.id)) as SessionInfo
    expect(session.summary).toMatchObject({ additions: 2, deletions: 1, files: 2 })
  })

  it('walks the workspace only after a step that may have written, and still records what that step changed', async () => {
    const test = await setup(
      [
        toolReply([{ id: 'r', name: 'read', input: { filePath: 'src/app.ts' } }]),
        toolReply([{ id: 'g', name: 'grep', input: { pattern: 'hello' } }]),
        toolReply([{ id: 'w', name: 'write', input: { filePath: 'NOTES.md', content: 'done\n' } }]),
        textReply('All done.'),
      ],
      { 'src/app.ts': 'console.log("hello")\n' },
    )
    await test.prompt('look, then write notes')
    await test.run()
    // The first step's start, and the end of the step that wrote: read, grep and the text reply end where they began,
    // and a step starts from the last walk when the workspace reported no change since.
    expect(test.walks()).toBe(2)
    const steps = (await test.history()).filter((entry) => entry.info.role === 'assistant')
    const snapshotsOf = (type: 'step-start' | 'step-finish') =>
      steps.map((entry) => entry.parts.flatMap((part) => (part.type === type && part.snapshot ? [part.snapshot] : []))[0])
    const [starts, finishes] = [snapshotsOf('step-start'), snapshotsOf('step-finish')]
    expect(finishes[0]).toBe(starts[0])
    expect(finishes[1]).toBe(starts[1])
    expect(finishes[2]).not.toBe(starts[2])
    expect(steps.flatMap((entry) => entry.parts.filter((part) => part.type === 'patch'))).toMatchObject([{ files: ['NOTES.md'] }])
    const user = (await test.history())[0]!.info
    expect(user.role === 'user' && user.summary?.diffs.map((diff) => diff.file)).toEqual(['NOTES.md'])
  })

  it("records the turn's diffs from the loop's last read of the history, without walking the session again", async () => {
    const test = await setup([toolReply([{ id: 'w', name: 'write', input: { filePath: 'NOTES.md', content: 'done\n' } }]), textReply('Written.')])
    // No pruning in the background, so every read of the history below is the turn's own.
    await test.db.settings.put({ key: 'compaction.prune', value: false })
    await test.prompt('write notes')
    const walks = vi.spyOn(test.db.messages, 'where')
    await test.run()
    // One read of the history per step, and the one that found the turn done: nothing more at its end.
    expect(walks).toHaveBeenCalledTimes(3)
    const user = (await test.history())[0]!.info
    expect(user.role === 'user' && user.summary?.diffs.map((diff) => diff.file)).toEqual(['NOTES.md'])
    expect((await test.db.sessions.get(test.session.id))?.summary).toMatchObject({ files: 1 })
  })

  it('spends few transactions and events on a step that reads a file', async () => {
    const steps = 6
    const reads = Array.from({ length: steps }, (_, index) => toolReply([{ id: `r${index}`, name: 'read', input: { filePath: 'src/app.ts', offset: index + 1 } }]))
    const test = await setup([...reads, textReply('Read.')], { 'src/app.ts': Array.from({ length: 20 }, (_, index) => `line ${index}`).join('\n') })
    await test.db.settings.put({ key: 'compaction.prune', value: false })
    await test.prompt('read it')
    // Every transaction storage opens (explicit or a lone request's own), counted below Dexie.
    test.db.close()
    let transactions = 0
    test.db.use({ stack: 'dbcore', name: 'count-transactions', create: (down) => ({ ...down, transaction: (...args) => (transactions++, down.transaction(...args)) }) })
    await test.db.open()
    test.events.length = 0
    await test.run()
    expect((await test.tools()).map((part) => part.state.status)).toEqual(Array(steps).fill('completed'))
    const perStep = { transactions: transactions / (steps + 1), events: test.events.length / (steps + 1) }
    // Per step: the reply created (the history kept in memory from the step before), the step's start and the tool
    // running, the tool's result with the step's finish and the message completed; the turn's reads, its first
    // history read and its end on top (15.9 transactions and 9.4 events before the turn's reads were shared and the
    // writes merged, about 9 and 7.1–7.6 before the history was kept and the result held for the finish, issue 32).
    // About 6.3 and 6.7–7 here: whether a tool's running state shares the step start's write depends on storage
    // still being busy with it (the part writer's tests pin that), so the bounds allow each tool step one write and
    // one event more.
    expect(perStep.transactions).toBeLessThanOrEqual(7.5)
    expect(perStep.events).toBeLessThanOrEqual(8)
  })

  it('walks the workspace again at the next step when a file changed during a step that only read, and counts the change in the turn', async () => {
    const test = await setup(
      [toolReply([{ id: 'r', name: 'read', input: { filePath: 'src/app.ts' } }]), toolReply([{ id: 'r2', name: 'read', input: { filePath: 'src/app.ts', offset: 1 } }]), textReply('Done.')],
      { 'src/app.ts': 'console.log("hello")\n' },
    )
    // The user saves a file in the editor while the second step's request is out.
    const doStream = test.main.model.doStream.bind(test.main.model)
    let calls = 0
    let edited = false
    test.main.model.doStream = async (options) => {
      if (++calls === 2) {
        await test.workspace.writeFile('/workspace/USER.md', new TextEncoder().encode('mine\n'))
        edited = true
      }
      return doStream(options)
    }
    await test.prompt('read it twice')
    await test.run()
    expect(edited).toBe(true)
    // The first step's start, and the third's (the second's start still saw no change).
    expect(test.walks()).toBe(2)
    const user = (await test.history())[0]!.info
    expect(user.role === 'user' && user.summary?.diffs.map((diff) => diff.file)).toEqual(['USER.md'])
  })

  it('asks before reading a .env file and stops the turn when the user rejects', async () => {
    const test = await setup([toolReply([{ id: 'r', name: 'read', input: { filePath: '.env' } }]), textReply('never sent')], { '.env': 'KEY=1' })
    const asked = test.answerAll({ type: 'reject' })
    await test.prompt('show me the env')
    await test.run()
    expect(asked).toEqual(['read'])
    const [part] = await test.tools()
    expect(part!.state).toMatchObject({ status: 'error' })
    // The turn ended after the rejected step: the second scripted reply was never requested.
    expect(test.main.remaining()).toBe(1)
  })

  it('lets the model read the feedback of a rejection and go on', async () => {
    const test = await setup([toolReply([{ id: 'r', name: 'read', input: { filePath: '.env' } }]), textReply('Understood.')], { '.env': 'KEY=1' })
    test.answerAll({ type: 'reject', feedback: 'Do not read secrets; use .env.example' })
    await test.prompt('show me the env')
    await test.run()
    const [part] = await test.tools()
    expect(part!.state.status === 'error' && part!.state.error).toContain('use .env.example')
    expect(test.main.remaining()).toBe(0)
  })

  it('asks doom_loop when the same call repeats three times across the steps of a turn', async () => {
    const same = { id: 'x', name: 'list', input: { path: '.' } }
    const test = await setup([
      toolReply([{ ...same, id: 'a' }]),
      toolReply([{ ...same, id: 'b' }]),
      toolReply([{ ...same, id: 'c' }]),
      textReply('Stopping.'),
    ])
    const asked = test.answerAll({ type: 'once' })
    await test.prompt('list it')
    await test.run()
    expect(asked.filter((permission) => permission === 'doom_loop')).toHaveLength(1)
  })

  it('keeps the plan agent from editing files but lets it write its plan', async () => {
    const test = await setup(
      [
        toolReply([
          { id: 'w', name: 'write', input: { filePath: 'src/x.ts', content: 'x' } },
          { id: 'p', name: 'write', input: { filePath: '.tabcode/plans/plan.md', content: '# Plan' } },
        ]),
        textReply('Planned.'),
      ],
      {},
    )
    await test.prompt('plan it', 'plan')
    await test.run()
    const parts = await test.tools()
    expect(parts.find((part) => part.callID === 'w')!.state).toMatchObject({ status: 'error' })
    expect(parts.find((part) => part.callID === 'p')!.state).toMatchObject({ status: 'completed' })
    expect(await test.workspace.stat('/workspace/src/x.ts')).toBeUndefined()
  })

  it('runs a subagent in a child session and returns its answer to the parent', async () => {
    const test = await setup([
      toolReply([{ id: 't', name: 'task', input: { description: 'Look around', prompt: 'What is here?', subagent_type: 'explore' } }]),
      textReply('Nothing much.'),
      textReply('The explorer says: nothing much.'),
    ])
    await test.prompt('delegate')
    await test.run()
    const children = await test.db.sessions.where('parentID').equals(test.session.id).toArray()
    expect(children).toHaveLength(1)
    expect(children[0]!.title).toContain('Look around')
    const [task] = await test.tools()
    expect(task!.state.status === 'completed' && task!.state.output).toContain('Nothing much.')
    expect(task!.state.status === 'completed' && task!.state.output).toContain(`<task id="${children[0]!.id}" state="completed">`)
  })

  it("gives a subagent's child session opencode's rules: it cannot start subagents of its own", async () => {
    const test = await setup([
      toolReply([{ id: 't', name: 'task', input: { description: 'Do a part', prompt: 'Do it.', subagent_type: 'general' } }]),
      textReply('Done.'),
      textReply('The helper did it.'),
    ])
    await test.prompt('delegate')
    await test.run()
    const [child] = await test.db.sessions.where('parentID').equals(test.session.id).toArray()
    expect(child!.permission).toEqual([{ permission: 'task', pattern: '*', action: 'deny' }])
    expect((test.main.model.doStreamCalls[0]!.tools ?? []).map((tool) => tool.name)).toEqual(expect.arrayContaining(['task', 'todowrite']))
    const offered = (test.main.model.doStreamCalls[1]!.tools ?? []).map((tool) => tool.name)
    expect(offered).toContain('read')
    expect(offered).not.toContain('task')
    expect(offered).not.toContain('todowrite')
    expect(offered).not.toContain('question')
  })

  it('hides from the model the tools its agent denies with "*" (explore cannot even see edit, write or task)', async () => {
    const test = await setup([textReply('Looked.')])
    await test.prompt('look', 'explore')
    await test.run()
    const offered = (test.main.model.doStreamCalls[0]!.tools ?? []).map((tool) => tool.name)
    expect(offered).toEqual(expect.arrayContaining(['read', 'grep', 'glob', 'list', 'bash']))
    expect(offered).not.toContain('edit')
    expect(offered).not.toContain('write')
    expect(offered).not.toContain('task')
  })
})
