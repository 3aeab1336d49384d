import { changedFiles, takeSnapshot } from '../snapshot'
import { createLocalWorkspace, type LocalWorkspace } from '../workspace/local/local-workspace'
import { createDexieStorage } from '../store/dexie-storage'
import { makeBuilders } from './fixture-builders'
import { ascending } from '../core/id'
import type { AssistantMessage, Part, PartOf, Project, UserMessage } from '../core/schema'
import { createSession } from '../store/session-store'
import { makeTestContext } from './test-context'

export const MODEL = { providerID: 'mock', modelID: 'mock-model' }

export interface RecordedTurn {
  user: UserMessage
  assistant: AssistantMessage
  userText: PartOf<'text'>
  stepStart: PartOf<'step-start'>
  reply: PartOf<'text'>
  stepFinish: PartOf<'step-finish'>
  patch?: PartOf<'patch'>
}

/**
 * A session over a stored project (fake IndexedDB) whose turns are recorded the way the loop records them: one step
 * per turn with a step-start part holding the snapshot before, the reply, a step-finish part with the snapshot
 * after and its cost, then a patch part when a file changed. Tests for history operations build on it.
 */
export async function makeFileSession(files: Record<string, string> = {}) {
  const test = makeTestContext()
  const { context, db } = test
  const now = context.now()
  const project: Project = { id: ascending('project', now), name: 'Demo', directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: now }, time: { created: now, updated: now } }
  await db.projects.add(project)
  const workspace: LocalWorkspace = await createLocalWorkspace({ storage: createDexieStorage(db, project.id), now: () => test.advance() })
  for (const [path, text] of Object.entries(files)) await workspace.writeFile(path, text)
  const session = await createSession(context, { projectID: project.id, title: 'Demo session' })
  await db.sessions.update(session.id, { model: MODEL })
  const build = makeBuilders(now + 1000)
  const partID = () => build.ids.ascending('part', build.now())
  const track = () => takeSnapshot({ store: context, projectID: project.id, workspace })

  async function turn(prompt: string, change?: (workspace: LocalWorkspace) => Promise<void>, cost = 0.01): Promise<RecordedTurn> {
    const user = build.user(session.id, { model: MODEL })
    const userText = build.text(user, prompt)
    const assistant = build.assistant(session.id, user.id, { providerID: MODEL.providerID, modelID: MODEL.modelID })
    const before = await track()
    const stepStart: PartOf<'step-start'> = { id: partID(), sessionID: session.id, messageID: assistant.id, type: 'step-start', snapshot: before.id }
    await change?.(workspace)
    const after = await track()
    const reply = build.text(assistant, `done: ${prompt}`)
    const stepFinish: PartOf<'step-finish'> = { ...build.stepFinish(assistant, cost, 10, 5), snapshot: after.id }
    const changed = changedFiles(before, after)
    const patch: PartOf<'patch'> | undefined = changed.length
      ? { id: partID(), sessionID: session.id, messageID: assistant.id, type: 'patch', hash: before.id, files: changed }
      : undefined
    const parts: Part[] = [userText, stepStart, reply, stepFinish, ...(patch ? [patch] : [])]
    await db.messages.bulkAdd([user, assistant])
    await db.parts.bulkAdd(parts)
    const current = (await db.sessions.get(session.id))!
    await db.sessions.update(session.id, {
      cost: (current.cost ?? 0) + stepFinish.cost,
      tokens: { ...current.tokens!, input: current.tokens!.input + 10, output: current.tokens!.output + 5 },
    })
    return { user, assistant, userText, stepStart, reply, stepFinish, ...(patch ? { patch } : {}) }
  }

  const files_ = async () => {
    const manifest = await workspace.manifest()
    const result: Record<string, string> = {}
    for (const path of Object.keys(manifest).sort()) result[path.replace('/workspace/', '')] = await workspace.readText(path)
    return result
  }

  return { ...test, project, workspace, session, build, partID, track, turn, files: files_, sessionFiles: { projectID: project.id, workspace } }
}
