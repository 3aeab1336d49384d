import { describe, expect, it } from 'vitest'
import type { SessionStatus } from '../core/event'
import type { LoopDependencies } from '../session/loop'
import { createUserMessage, enqueuePrompt, queuedPrompts } from '../store/prompt'
import { loadHistory, updateMessage } from '../store/message-store'
import { ascending } from '../core/id'
import { createSession } from '../store/session-store'
import { makeTestContext } from '../testing/test-context'
import { testWorkspacePorts } from '../testing/loop-dependencies'
import { apiError, scriptedModel, textReply, type ScriptedReply } from '../testing/scripted-model'
import { ToolRegistry } from '../tools/registry'
import { makeLocalLocks, SessionRunner, type CommandChannel } from './session-runner'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

function makeCommands() {
  const cancels: ((sessionID: string) => void)[] = []
  const statuses: ((sessionID: string) => void)[] = []
  // Like a BroadcastChannel: every other tab hears it (the sender acts on its own run directly).
  const channel = (): CommandChannel => {
    let ownCancel: ((sessionID: string) => void) | undefined
    let ownStatus: ((sessionID: string) => void) | undefined
    return {
      cancel: (sessionID) => cancels.filter((listener) => listener !== ownCancel).forEach((listener) => listener(sessionID)),
      onCancel: (listener) => {
        ownCancel = listener
        cancels.push(listener)
      },
      requestStatus: (sessionID) => statuses.filter((listener) => listener !== ownStatus).forEach((listener) => listener(sessionID)),
      onStatusRequest: (listener) => {
        ownStatus = listener
        statuses.push(listener)
      },
    }
  }
  return { channel }
}

async function twoTabs(replies: ScriptedReply[]) {
  const test = makeTestContext()
  const statuses: { sessionID: string; status: SessionStatus }[] = []
  const scripted = scriptedModel(replies)
  const dependencies: Omit<LoopDependencies, 'onWriter'> = {
    store: test.context,
    models: {
      resolve: async () => ({ model: scripted.model, providerID: 'mock', modelID: 'mock-model', limit: { context: 200_000, output: 8_000 }, cost: { input: 0, output: 0 } }),
      smallModel: async () => undefined,
    },
    tools: new ToolRegistry(),
    retryLimit: async () => 0,
    sleep: async () => {},
    setStatus: (sessionID, status) => statuses.push({ sessionID, status }),
    ...testWorkspacePorts({ now: test.context.now }),
  }
  const locks = makeLocalLocks()
  const commands = makeCommands()
  const first = new SessionRunner(dependencies, locks, commands.channel())
  const second = new SessionRunner(dependencies, locks, commands.channel())
  const session = await createSession(test.context, { projectID: 'prj_test' })
  // The title call shares the scripted model; give it a session that already has a title.
  await test.db.sessions.update(session.id, { title: 'Titled' })
  const prompt = (text: string) => createUserMessage(test.context, { sessionID: session.id, parts: [{ type: 'text', text }], model: MODEL })
  const queue = (text: string) => enqueuePrompt(test.context, { sessionID: session.id, parts: [{ type: 'text', text }], model: MODEL })
  return { ...test, scripted, first, second, session, prompt, queue, statuses }
}

describe('session runner', () => {
  it('gives two tabs prompting one session one runner and no duplicate replies', async () => {
    const { first, second, session, prompt, context, scripted } = await twoTabs([textReply('one answer'), textReply('unexpected')])
    await prompt('hello')
    await Promise.all([first.start(session.id), second.start(session.id)])
    const history = await loadHistory(context, session.id)
    expect(history.map((entry) => entry.info.role)).toEqual(['user', 'assistant'])
    expect(scripted.model.doStreamCalls).toHaveLength(1)
  })

  it('cancels a run from the other tab', async () => {
    const { first, second, session, prompt, context } = await twoTabs([{ hangAfter: [{ type: 'stream-start', warnings: [] }] }])
    await prompt('hello')
    const running = first.start(session.id)
    await expect.poll(() => first.isRunning(session.id)).toBe(true)
    await expect.poll(async () => (await loadHistory(context, session.id)).length).toBe(2)
    second.cancel(session.id)
    await running
    const reply = (await loadHistory(context, session.id))[1]!
    expect(reply.info).toMatchObject({ error: { name: 'MessageAbortedError' } })
  })

  it('repairs only a session nobody is running', async () => {
    const { first, second, session, prompt, context, statuses } = await twoTabs([{ hangAfter: [{ type: 'stream-start', warnings: [] }] }])
    await prompt('hello')
    const running = first.start(session.id)
    await expect.poll(async () => (await loadHistory(context, session.id)).length).toBe(2)
    statuses.length = 0
    // The tab that opens a running session hears its status from the runner, so it can show it busy and stop it.
    expect(await second.repairIfIdle(session.id)).toBe(false)
    expect(statuses).toEqual([{ sessionID: session.id, status: { type: 'busy' } }])
    first.cancel(session.id)
    await running
    expect(await second.repairIfIdle(session.id)).toBe(false)
  })

  it('a tab watching a session another tab runs announces idle once that run is over', async () => {
    const { first, second, session, prompt, context, statuses } = await twoTabs([{ hangAfter: [{ type: 'stream-start', warnings: [] }] }])
    await prompt('hello')
    const running = first.start(session.id)
    await expect.poll(async () => (await loadHistory(context, session.id)).length).toBe(2)
    second.watch(session.id)
    statuses.length = 0
    first.cancel(session.id)
    await running
    await expect.poll(() => statuses.filter((entry) => entry.status.type === 'idle').length).toBeGreaterThanOrEqual(2)
  })

  it('knows a session is busy when this tab or another one runs it, and keeps history operations off it', async () => {
    const { first, second, session, prompt, context } = await twoTabs([{ hangAfter: [{ type: 'stream-start', warnings: [] }] }])
    expect(await second.isBusy(session.id)).toBe(false)
    await prompt('hello')
    const running = first.start(session.id)
    await expect.poll(async () => (await loadHistory(context, session.id)).length).toBe(2)
    expect(await first.isBusy(session.id)).toBe(true)
    // The other tab runs nothing itself, but the lock is held.
    expect(await second.isBusy(session.id)).toBe(true)
    let ran = false
    await expect(second.whileIdle(session.id, 'revert it', async () => (ran = true))).rejects.toMatchObject({
      name: 'BusyError',
      data: { sessionID: session.id, action: 'revert it' },
    })
    expect(ran).toBe(false)
    first.cancel(session.id)
    await running
    expect(await second.isBusy(session.id)).toBe(false)
    expect(await second.whileIdle(session.id, 'revert it', async () => 'done')).toBe('done')
  })

  it('runs a queued prompt after a turn that ended in an error', async () => {
    const { first, session, prompt, queue, context } = await twoTabs([apiError(400, 'Bad request'), textReply('queued answer')])
    await prompt('hello')
    await queue('after that')
    await first.start(session.id)
    // The reply exists before its text is flushed: wait for the text, not for the message.
    const answered = async () => (await loadHistory(context, session.id))[3]?.parts.some((part) => part.type === 'text' && part.text === 'queued answer')
    await expect.poll(answered).toBe(true)
    const history = await loadHistory(context, session.id)
    expect(history).toHaveLength(4)
    expect(history[2]!.parts).toMatchObject([{ type: 'text', text: 'after that' }])
    expect(history[3]!.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'queued answer' }))
    expect(await queuedPrompts(context, session.id)).toEqual([])
  })

  it('keeps queued prompts waiting when the user stops the turn', async () => {
    const { first, session, prompt, queue, context, scripted } = await twoTabs([{ hangAfter: [{ type: 'stream-start', warnings: [] }] }, textReply('unexpected')])
    await prompt('hello')
    await queue('after that')
    const running = first.start(session.id)
    await expect.poll(async () => (await loadHistory(context, session.id)).length).toBe(2)
    first.cancel(session.id)
    await running
    expect(await queuedPrompts(context, session.id)).toHaveLength(1)
    expect(scripted.model.doStreamCalls).toHaveLength(1)
  })

  it('runs the queue of a runner that died mid-turn once a tab opens the session', async () => {
    const { second, session, prompt, queue, context } = await twoTabs([textReply('queued answer')])
    const { info: user } = await prompt('hello')
    // What a tab that reloaded mid-reply leaves: a reply never completed, and a prompt queued behind it.
    await updateMessage(context, {
      id: ascending('message', context.now()),
      sessionID: session.id,
      role: 'assistant',
      time: { created: context.now() },
      parentID: user.id,
      modelID: MODEL.modelID,
      providerID: MODEL.providerID,
      agent: 'build',
      mode: 'build',
      path: { cwd: '/', root: '/' },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    })
    await queue('after that')
    expect(await second.repairIfIdle(session.id)).toBe(true)
    // The reply exists before its text is flushed: wait for the text, not for the message.
    const answered = async () => (await loadHistory(context, session.id))[3]?.parts.some((part) => part.type === 'text' && part.text === 'queued answer')
    await expect.poll(answered).toBe(true)
    const history = await loadHistory(context, session.id)
    expect(history).toHaveLength(4)
    expect(history[2]!.parts).toMatchObject([{ type: 'text', text: 'after that' }])
    expect(history[3]!.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'queued answer' }))
  })

  /** What a tab that reloaded mid-reply leaves: a reply never completed (no end time, no error). */
  async function cutReply(context: Awaited<ReturnType<typeof twoTabs>>['context'], sessionID: string, parentID: string) {
    await updateMessage(context, {
      id: ascending('message', context.now()),
      sessionID,
      role: 'assistant',
      time: { created: context.now() },
      parentID,
      modelID: MODEL.modelID,
      providerID: MODEL.providerID,
      agent: 'build',
      mode: 'build',
      path: { cwd: '/', root: '/' },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    })
  }

  it('answers a prompt that joined the turn of a runner that died, once a tab opens the session', async () => {
    const { second, session, prompt, context, scripted } = await twoTabs([textReply('joined answer')])
    const { info: user } = await prompt('hello')
    await cutReply(context, session.id, user.id)
    // Sent while the turn ran: stored, to be answered at the turn's next step, which never came.
    const { info: joined } = await prompt('and also this')
    expect(await second.repairIfIdle(session.id)).toBe(true)
    const answered = async () => (await loadHistory(context, session.id))[3]?.parts.some((part) => part.type === 'text' && part.text === 'joined answer')
    await expect.poll(answered).toBe(true)
    const history = await loadHistory(context, session.id)
    expect(history).toHaveLength(4)
    expect(history[3]!.info).toMatchObject({ role: 'assistant', parentID: joined.id })
    expect(scripted.model.doStreamCalls).toHaveLength(1)
  })

  it('leaves a prompt that joined a turn the user stopped unanswered, as Stop asks', async () => {
    const { first, second, session, prompt, context, scripted } = await twoTabs([{ hangAfter: [{ type: 'stream-start', warnings: [] }] }, textReply('unexpected')])
    await prompt('hello')
    const running = first.start(session.id)
    await expect.poll(async () => (await loadHistory(context, session.id)).length).toBe(2)
    await prompt('and also this')
    first.cancel(session.id)
    await running
    expect(await second.repairIfIdle(session.id)).toBe(false)
    expect(await first.repairIfIdle(session.id)).toBe(false)
    expect(scripted.model.doStreamCalls).toHaveLength(1)
    expect(await loadHistory(context, session.id)).toHaveLength(3)
  })

  it('answers a stranded prompt on request, and runs nothing for one answered meanwhile, even by a reply the user stopped', async () => {
    const hang = { hangAfter: [{ type: 'stream-start' as const, warnings: [] }] }
    const { first, second, session, prompt, context, scripted } = await twoTabs([hang, hang, textReply('unexpected')])
    await prompt('hello')
    const running = first.start(session.id)
    await expect.poll(async () => (await loadHistory(context, session.id)).length).toBe(2)
    const { info: joined } = await prompt('and also this')
    first.cancel(session.id)
    await running
    // Stranded: "Answer it now" is offered in both tabs. One tab's click answers it, and that answer is stopped too.
    const answering = first.answer(session.id, joined.id)
    await expect.poll(async () => (await loadHistory(context, session.id)).length).toBe(4)
    first.cancel(session.id)
    await answering
    expect((await loadHistory(context, session.id))[3]!.info).toMatchObject({ parentID: joined.id, error: { name: 'MessageAbortedError' } })
    // The other tab's click, a moment late, runs nothing: the prompt has a reply now.
    await second.answer(session.id, joined.id)
    expect(scripted.model.doStreamCalls).toHaveLength(2)
    expect(await loadHistory(context, session.id)).toHaveLength(4)
  })

})
