import { describe, expect, it } from 'vitest'
import { textReply, type ScriptedReply } from '../testing/scripted-model'
import { SCRIPTED_MODEL as MODEL, startScriptedService } from './testing/scripted-service'

/** The worker service over the wire with a scripted model and a titled session (so no title call takes a reply). */
async function setup(replies: ScriptedReply[]) {
  const { api, events, scripted, untilIdle: settled } = await startScriptedService(replies, 'compaction')
  const created = await api.createSession({})
  const session = await api.renameSession(created.id, 'Work')
  const prompt = (text: string) => settled(() => api.prompt({ sessionID: session.id, parts: [{ type: 'text', text }], model: MODEL }))
  const messages = async () => (await api.pageMessages({ sessionID: session.id, limit: 100 })).messages
  return { api, events, scripted, session, prompt, settled, messages }
}

/** The texts of a request, in order, whether given as model messages or as the provider prompt the model received. */
function texts(messages: unknown[]): string[] {
  return messages.flatMap((message) => {
    const content = (message as { content: unknown }).content
    if (typeof content === 'string') return [content]
    return (content as { type: string; text?: string }[]).flatMap((part) => (part.type === 'text' && part.text ? [part.text] : []))
  })
}

describe('compaction over the worker protocol', () => {
  it('compacts on request: a marker for the last prompt’s agent and model, then its summary, and no follow-up', async () => {
    const { api, session, prompt, settled, messages } = await setup([textReply('first answer'), textReply('SUMMARY')])
    await prompt('first question')
    await settled(() => api.compactSession({ sessionID: session.id }))
    const stored = await messages()
    expect(stored).toHaveLength(4)
    const [, , marker, summary] = stored
    expect(marker!.info).toMatchObject({ role: 'user', agent: 'build', model: MODEL })
    expect(marker!.parts).toEqual([expect.objectContaining({ type: 'compaction', auto: false })])
    expect(summary!.info).toMatchObject({ role: 'assistant', summary: true, parentID: marker!.info.id })
    // Compacting again right away would only summarise the summary.
    await expect(api.compactSession({ sessionID: session.id })).rejects.toMatchObject({ name: 'InputError' })
  })

  it('refuses to compact or undo while the session runs, and compacts nothing in an empty session', async () => {
    const { api, session, scripted, events } = await setup([
      { hangAfter: [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'thinking' }] },
    ])
    await expect(api.compactSession({ sessionID: session.id })).rejects.toMatchObject({ name: 'InputError' })
    await expect(api.compactSession({ sessionID: 'ses_unknown' })).rejects.toMatchObject({ name: 'NotFoundError' })
    await api.prompt({ sessionID: session.id, parts: [{ type: 'text', text: 'go' }], model: MODEL })
    await expect.poll(() => scripted.model.doStreamCalls.length).toBe(1)
    await expect(api.compactSession({ sessionID: session.id })).rejects.toMatchObject({ name: 'BusyError', data: { sessionID: session.id } })
    await expect(api.undoCompaction({ sessionID: session.id, messageID: 'msg_x' })).rejects.toMatchObject({ name: 'BusyError' })
    await api.cancel(session.id)
    await expect.poll(() => events.some((event) => event.type === 'session.status' && event.status.type === 'idle')).toBe(true)
  })

  it('undoes a compaction by its marker or its summary, and only a compaction', async () => {
    const { api, session, prompt, settled, messages, events } = await setup([textReply('first answer'), textReply('SUMMARY')])
    await prompt('first question')
    await settled(() => api.compactSession({ sessionID: session.id }))
    const [question, , marker, summary] = await messages()
    await expect(api.undoCompaction({ sessionID: session.id, messageID: question!.info.id })).rejects.toMatchObject({ name: 'InputError', data: { field: 'messageID' } })
    await expect(api.undoCompaction({ sessionID: session.id, messageID: 'msg_unknown' })).rejects.toMatchObject({ name: 'NotFoundError' })
    expect((await api.modelView(session.id)).summaryMessageID).toBe(summary!.info.id)

    await api.undoCompaction({ sessionID: session.id, messageID: summary!.info.id })
    const part = (await messages())[2]!.parts[0]!
    expect(part).toMatchObject({ type: 'compaction', undone: expect.any(Number) })
    expect(events).toContainEqual({ type: 'part.updated', part })
    expect(marker!.info.id).toBe(part.messageID)
    const view = await api.modelView(session.id)
    expect(view.summaryMessageID).toBeUndefined()
    expect(texts(view.messages)).toEqual(['first question', 'first answer'])
  })

  it('shows exactly what the next request sends', async () => {
    const { api, session, prompt, settled, scripted } = await setup([textReply('first answer'), textReply('SUMMARY'), textReply('second answer')])
    await prompt('first question')
    await settled(() => api.compactSession({ sessionID: session.id }))
    const view = await api.modelView(session.id)
    expect(view.model).toEqual(MODEL)
    expect(texts(view.messages)).toEqual(['What did we do so far?', 'SUMMARY'])
    expect(view.estimatedTokens).toBe(Math.round(JSON.stringify([{ role: 'system', content: view.system }, ...view.messages]).length / 4))

    await prompt('second question')
    const [system, ...sent] = scripted.model.doStreamCalls[2]!.prompt
    expect(system).toEqual({ role: 'system', content: view.system })
    expect(texts(sent)).toEqual([...texts(view.messages), 'second question'])
  })

  it('leaves out what a pending revert hides: from the view, and for good before compacting', async () => {
    const { api, session, prompt, settled, scripted, messages } = await setup([textReply('first answer'), textReply('second answer'), textReply('SUMMARY')])
    await prompt('first question')
    await prompt('second question')
    const second = (await messages())[2]!
    await api.revertSession({ sessionID: session.id, messageID: second.info.id, files: false })
    expect(texts((await api.modelView(session.id)).messages)).toEqual(['first question', 'first answer'])
    await settled(() => api.compactSession({ sessionID: session.id }))
    const summariser = JSON.stringify(scripted.model.doStreamCalls[2]!.prompt)
    expect(summariser).toContain('first question')
    expect(summariser).not.toContain('second question')
    expect((await messages()).map((entry) => entry.info.id)).not.toContain(second.info.id)
  })
})

